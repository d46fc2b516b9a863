package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the testdata captures and the golden files")

// goldenCases run rtypedump over the committed testdata. Each golden file
// holds the command, its standard output, standard error and exit status.
var goldenCases = []struct {
	name  string
	args  []string
	stdin string // file fed on standard input
}{
	// A real loopback session (see TestLoopbackCapture), in every output.
	{"loopback_text", []string{"testdata/loopback.pcap"}, ""},
	{"loopback_json", []string{"-json", "testdata/loopback.pcap"}, ""},
	{"loopback_stats", []string{"-stats", "testdata/loopback.pcap"}, ""},
	{"loopback_stats_json", []string{"-json", "-stats", "testdata/loopback.pcap"}, ""},
	{"loopback_pcapng_json", []string{"-json", "testdata/loopback.pcapng"}, ""},
	{"loopback_stdin", []string{"-"}, "testdata/loopback.pcap"},
	// §3 with -port, other traffic, cut and fragmented datagrams.
	{"mixed_port5000", []string{"-port", "5000", "testdata/mixed.pcap"}, ""},
	{"mixed_port5000_stats", []string{"-port", "5000", "-stats", "testdata/mixed.pcap"}, ""},
	{"mixed_port5000_json", []string{"-port", "5000", "-json", "testdata/mixed.pcap"}, ""},
	// Without -port, the server is the address that answers a Hello with a
	// Welcome (§4.2, §4.3); a -port without a client is an error for -stats.
	{"mixed_auto_port", []string{"testdata/mixed.pcap"}, ""},
	{"mixed_auto_port_stdin", []string{"-stats", "-"}, "testdata/mixed.pcap"},
	{"mixed_port4242_stats", []string{"-port", "4242", "-stats", "testdata/mixed.pcap"}, ""},
	{"rawip", []string{"-json", "testdata/rawip.pcap"}, ""},
	// §5.4: packets with another connection id than the Welcome's.
	{"connid", []string{"testdata/connid.pcap"}, ""},
	{"connid_json", []string{"-json", "testdata/connid.pcap"}, ""},
	{"connid_stats", []string{"-stats", "testdata/connid.pcap"}, ""},
	// §3, §4.2, §7.3: an address re-used after a Disconnect, a second
	// Welcome after a lost one; §5.2 drops per direction.
	{"reconnect", []string{"testdata/reconnect.pcap"}, ""},
	{"reconnect_json", []string{"-json", "testdata/reconnect.pcap"}, ""},
	{"reconnect_stats", []string{"-stats", "testdata/reconnect.pcap"}, ""},
	// §4.2, §13: two Welcomes, the client takes the first; empty, cut and
	// ICMP-quoted datagrams; §7.3 the server's packets after a Disconnect.
	{"phases", []string{"testdata/phases.pcap"}, ""},
	{"phases_json", []string{"-json", "testdata/phases.pcap"}, ""},
	// Broken captures: every datagram before the fault, then the position.
	{"truncated_pcap", []string{"testdata/truncated.pcap"}, ""},
	{"truncated_pcap_stats", []string{"-stats", "testdata/truncated.pcap"}, ""},
	{"truncated_pcapng", []string{"testdata/truncated.pcapng"}, ""},
	{"short_header_pcap", []string{"testdata/short_header.pcap"}, ""},
	{"bad_block_pcapng", []string{"testdata/bad_block.pcapng"}, ""},
	{"not_a_capture", []string{"testdata/messages.hex"}, ""},
	// Hex read as a capture, handshakes read as packets: a hint at the
	// flags that read them.
	{"handshake_not_a_capture", []string{"testdata/handshake.hex"}, ""},
	{"hex_stdin_not_a_capture", []string{"-"}, "testdata/framing.hex"},
	{"handshake_as_packets", []string{"-hex", "testdata/handshake.hex"}, ""},
	{"empty_capture", []string{"testdata/empty.pcap"}, ""},
	{"missing_file", []string{"testdata/no_such_file.pcap"}, ""},
	// Hex input: §4 handshake rules, §5.3 framing rules, §7 and §8 message
	// rules, and bad lines.
	{"handshake", []string{"-hex", "-kind", "handshake", "testdata/handshake.hex"}, ""},
	{"handshake_json", []string{"-hex", "-kind", "handshake", "-json", "testdata/handshake.hex"}, ""},
	{"framing", []string{"-hex", "testdata/framing.hex"}, ""},
	{"framing_json", []string{"-hex", "-json", "testdata/framing.hex"}, ""},
	{"messages", []string{"-hex", "testdata/messages.hex"}, ""},
	{"messages_stats", []string{"-hex", "-stats", "testdata/messages.hex"}, ""},
	{"messages_json", []string{"-hex", "-json", "testdata/messages.hex"}, ""},
	{"hex_stdin", []string{"-hex", "-json"}, "testdata/framing.hex"},
	{"bad_digit", []string{"-hex", "testdata/bad_digit.hex"}, ""},
	{"bad_digit_stats", []string{"-hex", "-stats", "testdata/bad_digit.hex"}, ""},
	{"odd_digits", []string{"-hex", "-json", "testdata/odd_digits.hex"}, ""},
	// Usage errors.
	{"usage_no_capture", nil, ""},
	{"usage_bad_kind", []string{"-hex", "-kind", "welcome"}, ""},
	{"usage_two_files", []string{"a.pcap", "b.pcap"}, ""},
	{"usage_bad_port", []string{"-port", "70000", "x.pcap"}, ""},
	{"usage_kind_without_hex", []string{"-kind", "handshake", "testdata/loopback.pcap"}, ""},
	{"help", []string{"-h"}, ""},
	{"usage_unknown_flag", []string{"-x", "a.pcap"}, ""},
}

// runTool runs the command as main would and returns its outputs.
func runTool(t *testing.T, stdinFile string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var in bytes.Buffer
	if stdinFile != "" {
		b, err := os.ReadFile(stdinFile)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
	}
	var out, errb bytes.Buffer
	code = run(args, &in, &out, &errb)
	return out.String(), errb.String(), code
}

func TestGolden(t *testing.T) {
	writeTestdata(t)
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runTool(t, tc.stdin, tc.args...)
			cmdline := "$ rtypedump " + strings.Join(tc.args, " ")
			if tc.stdin != "" {
				cmdline += " < " + tc.stdin
			}
			got := fmt.Sprintf("%s\n%s--- stderr\n%s--- exit %d\n", cmdline, stdout, stderr, code)
			path := filepath.Join("testdata", "golden", tc.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("output differs from %s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestJSONLines checks that every JSON output is one valid JSON object per
// line, and that a capture reads the same from pcap and pcapng.
func TestJSONLines(t *testing.T) {
	pcap, _, _ := runTool(t, "", "-json", "testdata/loopback.pcap")
	ng, _, _ := runTool(t, "", "-json", "testdata/loopback.pcapng")
	if diff := cmp.Diff(pcap, ng); diff != "" {
		t.Errorf("pcap and pcapng of the same session decode differently:\n%s", diff)
	}
	for _, tc := range goldenCases {
		if !slices.Contains(tc.args, "-json") {
			continue
		}
		stdout, _, _ := runTool(t, tc.stdin, tc.args...)
		for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
			if line == "" {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Errorf("%s line %d is not a JSON object: %v\n%s", tc.name, i+1, err, line)
			}
		}
	}
}

// TestLoopbackCapture plays the scripted session over real loopback sockets,
// checks that rtypedump reports each datagram as the script sent it, and
// that the committed capture is what such a session produces.
func TestLoopbackCapture(t *testing.T) {
	x := runLoopback(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "loopback.pcap")
	var buf bytes.Buffer
	if err := writePcap(&buf, x.log); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("testdata/loopback.pcap")
	if err != nil || !bytes.Equal(committed, buf.Bytes()) {
		t.Errorf("testdata/loopback.pcap is not what the loopback session produces now (%v); run go test -update", err)
	}

	stdout, stderr, code := runTool(t, "", "-json", path)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != len(x.want) {
		t.Fatalf("%d datagrams decoded, the session sent %d", len(lines), len(x.want))
	}
	for i, line := range lines {
		var got struct {
			N        int
			Kind     string
			Valid    bool
			Type     string
			Src, Dst string
			Messages []struct{ Type string }
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		w := x.want[i]
		var types []string
		if got.Type != "" {
			types = append(types, got.Type)
		}
		for _, m := range got.Messages {
			types = append(types, m.Type)
		}
		if got.Kind != w.kind || got.Valid != w.valid || !cmp.Equal(types, w.types) || got.N != i+1 ||
			got.Src != x.log[i].src.String() || got.Dst != x.log[i].dst.String() {
			t.Errorf("datagram %d: got #%d %s→%s %s valid=%v %v, want %s→%s %s valid=%v %v",
				i+1, got.N, got.Src, got.Dst, got.Kind, got.Valid, types, x.log[i].src, x.log[i].dst, w.kind, w.valid, w.types)
		}
	}
}

// writeTestdata regenerates the committed captures with -update, and
// otherwise checks that they are what their generators produce.
func writeTestdata(t *testing.T) {
	t.Helper()
	files := syntheticCaptures(t)
	for name, b := range files {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is not what its generator produces (%v); run go test -update", path, err)
		}
	}
}

func addrPort(s string) netip.AddrPort { return netip.MustParseAddrPort(s) }
