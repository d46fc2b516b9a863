package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/qlog"
)

// traced is what a trace says of one connection.
type traced struct {
	conn           uint32
	states         []string
	sent, received []uint32 // the sequences of the connected packets
}

// readTraced reads every trace in dir, checking its format with
// qlog.ReadFile, and returns what each says.
func readTraced(t *testing.T, pattern string) []traced {
	t.Helper()
	paths, _ := filepath.Glob(pattern)
	var all []traced
	for _, p := range paths {
		_, evs, err := qlog.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var tr traced
		for _, e := range evs {
			var d struct {
				New    string `json:"new"`
				Conn   uint32 `json:"connection_id"`
				Header *struct {
					Sequence uint32 `json:"sequence"`
				} `json:"header"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			switch {
			case e.Name == "rtype:connection_state_updated":
				tr.states, tr.conn = append(tr.states, d.New), max(tr.conn, d.Conn)
			case e.Name == "rtype:packet_sent" && d.Header != nil:
				tr.sent = append(tr.sent, d.Header.Sequence)
			case e.Name == "rtype:packet_received" && d.Header != nil:
				tr.received = append(tr.received, d.Header.Sequence)
			}
		}
		all = append(all, tr)
	}
	return all
}

// sameUpToLast fails t unless got is want but for at most a few packets at
// the end: those in flight when the connection closed. It wants at least
// 10 in common, half a second of Snapshots (§10): a starved server that
// ticks late still sends them in the 2 s the test plays.
func sameUpToLast(t *testing.T, what string, want, got []uint32) {
	t.Helper()
	const few = 5
	n := min(len(want), len(got))
	if len(want)-n > few || len(got)-n > few || !slices.Equal(want[:n], got[:n]) || n < 10 {
		t.Errorf("%s: %d sent, %d received, equal for the first %d: want equal but the last few, 10 or more", what, len(want), len(got), n)
	}
}

// The example server and two bots, each with -trace and -pcap, play 2 s on
// loopback: each bot's trace holds the packets its server connection's
// trace sent, and the other way, up to the last few at shutdown, and goes
// connecting → waiting → playing → closed; both captures decode with
// rtypedump, every datagram valid, the same datagrams but the last few.
func TestTraceAndRecordBothSides(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example server and plays 2 s")
	}
	t.Parallel()
	dir := t.TempDir()
	dump := exampletest.Build(t, "./cmd/rtypedump")
	srvPcap, botPcap := filepath.Join(dir, "server.pcap"), filepath.Join(dir, "bots.pcap")
	srv := exampletest.StartServer(t, exampletest.Build(t, "./examples/server"), "-trace", filepath.Join(dir, "server"), "-pcap", srvPcap)
	var out, errw bytes.Buffer
	args := []string{"-server", srv.Addr, "-n", "2", "-duration", "2s", "-trace", filepath.Join(dir, "bots"), "-pcap", botPcap}
	if code := run(context.Background(), args, &out, &errw); code != 0 {
		t.Fatalf("bot: exit %d\n%s\n%s", code, out.String(), errw.String())
	}
	srv.Stop() // the server writes its traces and capture out as it exits
	_, port, _ := strings.Cut(srv.Addr, ":")
	ns, nb := validDatagrams(t, dump, port, srvPcap), validDatagrams(t, dump, port, botPcap)
	// The last few: those in flight as the bots closed, more on a busy
	// machine, the server's Snapshots to a bot between its last read and
	// its Disconnect.
	// What is judged is that the captures agree, not a rate: 100
	// datagrams is well under 2 s of two bots' Inputs (§7.1) alone.
	const few = 16
	if ns < 100 || nb < 100 || ns-nb > few || nb-ns > few {
		t.Errorf("captures: the server's %d datagrams, the bots' %d; want the same but the last few, 100 or more", ns, nb)
	}
	servers := readTraced(t, filepath.Join(dir, "server", "*.sqlog"))
	// A bot's trace of a peer other than the server holds only what it
	// dropped (§3): stray datagrams to a port an earlier process of a busy
	// machine used. Its own connection's trace has its states.
	bots := slices.DeleteFunc(readTraced(t, filepath.Join(dir, "bots", "bot-*", "*.sqlog")), func(b traced) bool { return len(b.states) == 0 })
	if len(servers) != 2 || len(bots) != 2 {
		t.Fatalf("%d server traces, %d bot traces; want 2 each", len(servers), len(bots))
	}
	for _, b := range bots {
		if want := []string{"connecting", "waiting", "playing", "closed"}; !slices.Equal(b.states, want) {
			t.Errorf("connection %d: the bot's states %v, want %v", b.conn, b.states, want)
		}
		i := slices.IndexFunc(servers, func(s traced) bool { return s.conn == b.conn })
		if i < 0 {
			t.Errorf("connection %d: no server trace", b.conn)
			continue
		}
		sameUpToLast(t, "server to bot", servers[i].sent, b.received)
		sameUpToLast(t, "bot to server", b.sent, servers[i].received)
	}
}

// validDatagrams decodes the capture at path with the rtypedump binary
// dump, the server on port, and returns how many datagrams it holds,
// failing t for any invalid one.
func validDatagrams(t *testing.T, dump, port, path string) int {
	t.Helper()
	out, err := exec.Command(dump, "-json", "-port", port, path).Output()
	if err != nil {
		t.Fatalf("rtypedump %s: %v", path, err)
	}
	n := 0
	for line := range strings.Lines(string(out)) {
		var d struct{ Valid bool }
		if err := json.Unmarshal([]byte(line), &d); err != nil || !d.Valid {
			t.Errorf("%s: datagram %d: %v %s", path, n+1, err, line)
		}
		n++
	}
	return n
}
