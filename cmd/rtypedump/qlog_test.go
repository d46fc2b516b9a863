package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/qlog"
)

// -qlog writes one trace per client address of a capture, in the fixed
// format (docs/trace.md), vantage network: every datagram of that client,
// to the server sent and from it received, or dropped with its key, and
// nothing on stdout; the JSON lines of the same capture count as many.
func TestQlog(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"-qlog", dir, "testdata/loopback.pcap"}, nil, &out, &errb); code != 0 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"-json", "testdata/loopback.pcap"}, nil, &out, &errb); code != 0 {
		t.Fatalf("-json: exit %d: %s", code, errb.String())
	}
	want := map[string]map[string]int{} // client → event name → count
	for line := range strings.Lines(out.String()) {
		var d struct {
			Src, Dst string
			Valid    bool
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		client, name := d.Src, "rtype:packet_sent"
		if strings.HasSuffix(d.Src, ":4242") {
			client, name = d.Dst, "rtype:packet_received"
		}
		if !d.Valid {
			name = "rtype:packet_dropped"
		}
		if want[client] == nil {
			want[client] = map[string]int{}
		}
		want[client][name]++
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.sqlog"))
	if len(paths) != len(want) || len(paths) == 0 {
		t.Fatalf("%d traces, %d client addresses in the capture", len(paths), len(want))
	}
	for _, p := range paths {
		h, evs, err := qlog.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, e := range evs {
			got[e.Name]++
		}
		w := want[h.Group]
		if h.Vantage != qlog.Network || len(got) != len(w) {
			t.Errorf("%s: vantage %s, events %v; want network, %v", p, h.Vantage, got, w)
		}
		for name, n := range w {
			if got[name] != n {
				t.Errorf("%s: %d %s, want %d", p, got[name], name, n)
			}
		}
	}
}

// A -qlog directory that cannot be written fails the command before any
// datagram is read: exit 2.
func TestQlogUnwritable(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-qlog", "/dev/null/traces", "testdata/loopback.pcap"}, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "-qlog") {
		t.Errorf("exit %d, stderr %q; want %d naming -qlog", code, errb.String(), exitUsage)
	}
}
