//go:build !js

package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/qlog"
)

// The play client in a real pseudo-terminal, under tmux, against the
// example server: the ship is drawn, holding Right (repeated key presses,
// as tmux reports no releases) moves it right, and q quits with status 0
// after a Disconnect reason 1 (§7.3), its -trace and -pcap written. A
// second client, whose terminal is then closed (SIGHUP), sends Disconnect
// reason 1 too.
func TestTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no terminal test")
	}
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): the terminal test needs it")
	}
	dir := t.TempDir()
	srv := exampletest.StartServer(t, exampletest.Build(t, "./examples/server"))
	playBin := exampletest.Build(t, "./examples/play")

	tm := &tmux{t: t, path: tmuxPath, socket: fmt.Sprintf("rtype-play-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { _, _ = tm.run("kill-server") })
	status := filepath.Join(dir, "status")
	traces, capture := filepath.Join(dir, "trace"), filepath.Join(dir, "play.pcap")
	tm.start("keys", fmt.Sprintf("'%s' -server %s -trace '%s' -pcap '%s'; echo $? > '%s'", playBin, srv.Addr, traces, capture, status))

	start := tm.waitScreen("keys", "the ship drawn", func(s string) bool { _, ok := shipColumn(s); return ok })
	col0, _ := shipColumn(start)

	// Hold Right for about a second, as a terminal's auto-repeat sends it.
	tick := time.NewTicker(30 * time.Millisecond)
	for range 33 {
		tm.must("send-keys", "-t", "keys", "Right")
		<-tick.C
	}
	tick.Stop()
	moved := tm.waitScreen("keys", "the ship moved right", func(s string) bool { c, ok := shipColumn(s); return ok && c > col0 })
	col1, _ := shipColumn(moved)
	t.Logf("ship column %d, then %d after holding Right", col0, col1)

	tm.must("send-keys", "-t", "keys", "q")
	code := waitFile(t, status, "play's exit status")
	if code != "0" {
		t.Errorf("play exited %s after q, want 0", code)
	}
	srv.WaitLog(t, "the server seeing Disconnect reason 1", "reason=ClientQuit", 1)
	checkTrace(t, filepath.Join(traces, qlog.Name(qlog.Client, netip.MustParseAddrPort(srv.Addr))))
	checkCapture(t, capture)

	tm.start("hangup", fmt.Sprintf("exec '%s' -server %s", playBin, srv.Addr))
	tm.waitScreen("hangup", "the second ship drawn", func(s string) bool { _, ok := shipColumn(s); return ok })
	tm.must("kill-session", "-t", "hangup") // the terminal hangs up: SIGHUP
	srv.WaitLog(t, "the server seeing Disconnect reason 1 after a hangup", "reason=ClientQuit", 2)
}

// checkTrace reads the trace of -trace at path, checking its format, and
// fails t unless it shows the client playing, then closed by its quit.
func checkTrace(t *testing.T, path string) {
	t.Helper()
	_, evs, err := qlog.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, e := range evs {
		if e.Name == "rtype:connection_state_updated" {
			states = append(states, string(e.Data))
		}
	}
	if n := len(states); n < 2 || !strings.Contains(states[n-2], `"playing"`) || !strings.Contains(states[n-1], `"reason":"disconnect"`) {
		t.Errorf("-trace: the states %q, want playing, then closed for the quit", states)
	}
}

// checkCapture reads the classic pcap file of -pcap at path and fails t
// unless it holds the session: one Welcome (§4.3), then connected packets
// both ways. rtypedump's tests read such captures whole; this one only
// walks the records, to keep the terminal test light.
func checkCapture(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 24 || binary.LittleEndian.Uint32(b) != 0xa1b2c3d4 {
		t.Fatalf("-pcap: %s is no classic pcap file", path)
	}
	welcomes, packets := 0, 0
	for rest := b[24:]; len(rest) >= 16; {
		n := int(binary.LittleEndian.Uint32(rest[8:]))
		if len(rest) < 16+n {
			t.Fatalf("-pcap: a record cut short")
		}
		frame := rest[16 : 16+n]
		rest = rest[16+n:]
		hl := 40 // IPv6
		if len(frame) > 14 && frame[12] == 0x08 && frame[13] == 0x00 {
			hl = 20
		}
		if len(frame) < 14+hl+8 {
			continue
		}
		payload := frame[14+hl+8:]
		switch {
		case len(payload) == 10 && binary.BigEndian.Uint32(payload) == 0x52545950 && payload[5] == 2:
			welcomes++
		case len(payload) >= 16:
			packets++
		}
	}
	if welcomes != 1 || packets < 50 {
		t.Errorf("-pcap: %d Welcomes, %d packets; want 1 Welcome and a game's packets", welcomes, packets)
	}
}

// shipColumn finds the leftmost drawn cell of the playfield, all but the
// HUD and help lines: the ship, alone in the lobby (§10) until Bydos come
// with the round.
func shipColumn(screen string) (int, bool) {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) < 3 {
		return 0, false
	}
	col := -1
	for _, l := range lines[:len(lines)-2] {
		for i, r := range []rune(l) {
			if r != ' ' {
				if col < 0 || i < col {
					col = i
				}
				break
			}
		}
	}
	return col, col >= 0
}

// tmux runs tmux commands on a server of its own socket.
type tmux struct {
	t            *testing.T
	path, socket string
	last         string
}

func (tm *tmux) run(args ...string) (string, error) {
	cmd := exec.Command(tm.path, append([]string{"-L", tm.socket}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// must runs a tmux command, failing the test if it fails.
func (tm *tmux) must(args ...string) {
	tm.t.Helper()
	if out, err := tm.run(args...); err != nil {
		tm.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// start runs shell in a new 100×30 session called name. The server stays
// up when its last session ends, so that the next start does not race a
// server shutting down ("server exited unexpectedly").
func (tm *tmux) start(name, shell string) {
	tm.t.Helper()
	tm.must("new-session", "-d", "-s", name, "-x", "100", "-y", "30", shell)
	tm.must("set-option", "-s", "exit-empty", "off")
}

// waitScreen captures session's pane until cond holds, for 10 s at most.
func (tm *tmux) waitScreen(session, what string, cond func(string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s, err := tm.run("capture-pane", "-p", "-t", session)
		if err == nil {
			tm.last = s
			if cond(s) {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not a wait
	}
	tm.t.Fatalf("%s: not within 10 s; the screen:\n%s", what, tm.last)
	return ""
}

// waitFile waits, 10 s at most, for path to hold a line, and returns it.
func waitFile(t *testing.T, path, what string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not a wait
	}
	t.Fatalf("%s: not within 10 s", what)
	return ""
}
