package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// The replay of a capture of two clients: playing moves the ticks on and
// fills the client's table, seeking back plays the client again from the
// start, n and p switch clients, + and - change speed, q quits.
func TestReplayer(t *testing.T) {
	f, err := os.Open(lossyGame(t, t.TempDir(), 2, 10*time.Second, 0.05, false))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rc, err := loadReplay(f, 4242)
	if err != nil || len(rc.clients) != 2 {
		t.Fatalf("loadReplay: %d clients, %v; want 2", len(rc.clients), err)
	}
	p := newReplayer(rc, 0)
	p.play(6 * time.Second)
	tick6, ents := p.tick, p.hud().Entities
	if tick6 < 300 || ents < 2 {
		t.Fatalf("after 6 s: tick %d, %d entities; want about 360 and the ships", tick6, ents)
	}
	p.key("left")
	if p.pos != time.Second || p.tick >= tick6 || p.tick == 0 {
		t.Errorf("after ← from 6 s: at %v, tick %d; want 1 s, an earlier tick", p.pos, p.tick)
	}
	p.key("right")
	if p.pos != 6*time.Second || p.tick != tick6 {
		t.Errorf("after → from 1 s: at %v, tick %d; want 6 s and tick %d again", p.pos, p.tick, tick6)
	}
	p.key(" ")
	p.play(time.Second)
	if p.pos != 6*time.Second || !strings.Contains(p.hud().Status, "paused") {
		t.Errorf("paused: at %v, %q", p.pos, p.hud().Status)
	}
	p.key(" ")
	p.key("+")
	p.play(time.Second)
	if p.pos != 8*time.Second || !strings.Contains(p.hud().Status, " 2x ") {
		t.Errorf("at 2x for 1 s from 6 s: at %v, %q", p.pos, p.hud().Status)
	}
	first := rc.clients[0].addr.String()
	p.key("n")
	if p.ci != 1 || p.pos != 8*time.Second || p.tick == 0 || strings.Contains(p.hud().Status, first) {
		t.Errorf("after n: client %d at %v, tick %d, %q", p.ci, p.pos, p.tick, p.hud().Status)
	}
	p.key("p")
	if p.ci != 0 || p.key("q") {
		t.Errorf("after p: client %d; q must quit", p.ci)
	}
	p.seek(time.Hour)
	if p.pos != p.span() || !strings.Contains(p.hud().Status, "end") {
		t.Errorf("past the end: at %v of %v, %q", p.pos, p.span(), p.hud().Status)
	}
}

// rtypedump -watch in a real pseudo-terminal, under tmux, on a capture of
// a game: the ships drawn, the tick advancing, q exits 0.
func TestWatchTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no terminal test")
	}
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (apt-get install -y tmux): the terminal test needs it")
	}
	t.Parallel()
	dir := t.TempDir()
	capture := lossyGame(t, dir, 2, 10*time.Second, 0, false)
	bin := exampletest.Build(t, "./cmd/rtypedump")
	status := filepath.Join(dir, "status")
	socket := fmt.Sprintf("rtypedump-watch-%d-%d", os.Getpid(), time.Now().UnixNano())
	tm := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	tm("-f", "/dev/null", "new-session", "-d", "-s", "w", "-x", "100", "-y", "30",
		fmt.Sprintf("'%s' -watch '%s'; echo $? > '%s'; sleep 30", bin, capture, status))
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", socket, "kill-server").Run() })
	hudTick := regexp.MustCompile(`tick (\d+) `)
	ticks := func(what string, cond func(tick int, screen string) bool) int {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			s := tm("capture-pane", "-p", "-t", "w")
			if m := hudTick.FindStringSubmatch(s); m != nil {
				if n, _ := strconv.Atoi(m[1]); cond(n, s) {
					return n
				}
			}
			time.Sleep(20 * time.Millisecond) // polling interval, not a wait
		}
		t.Fatalf("%s: not within 10 s; the screen:\n%s", what, tm("capture-pane", "-p", "-t", "w"))
		return 0
	}
	first := ticks("a tick and both ships drawn", func(n int, s string) bool {
		field := s[:strings.LastIndex(strings.TrimRight(s, "\n"), "\n")]
		return n > 0 && strings.Contains(field, "1") && strings.Contains(field, "2")
	})
	ticks("the tick advancing", func(n int, _ string) bool { return n > first+30 })
	tm("send-keys", "-t", "w", "q")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(status); err == nil && strings.HasSuffix(string(b), "\n") {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Errorf("rtypedump -watch exited %s after q, want 0", code)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("rtypedump -watch did not exit within 10 s of q")
		}
	}
}
