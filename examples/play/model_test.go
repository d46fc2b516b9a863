//go:build !js

package main

import (
	"bytes"
	"errors"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

const frameTime = session.DefaultInterval

// peer is one play client in the in-memory network: its model, its
// address, what it sent and what the server accepted from it.
type peer struct {
	m      *model
	addr   netip.AddrPort
	out    [][]byte
	inputs []rtype.Actions      // Inputs the server accepted, in order (§7.1)
	left   *session.ServerEvent // the server's EventPlayerLeft, once it came
}

// world runs models against a session.Server in memory, on a fake clock
// moved one frame per step: no socket, no wall clock.
type world struct {
	t      testing.TB
	now    time.Time
	server netip.AddrPort
	srv    *session.Server
	peers  []*peer
	toPeer map[netip.AddrPort][][]byte
}

func newWorld(t testing.TB, cfg session.ServerConfig) *world {
	w := &world{
		t:      t,
		now:    clock0,
		server: netip.MustParseAddrPort("192.0.2.1:4242"),
		toPeer: map[netip.AddrPort][][]byte{},
	}
	cfg.ValidationKey = []byte("a fixed key for deterministic tests")
	w.srv = session.NewServer(cfg, func(to netip.AddrPort, b []byte) {
		w.toPeer[to] = append(w.toPeer[to], bytes.Clone(b))
	})
	return w
}

// join adds a play client at the terminal size cols×rows.
func (w *world) join(cols, rows int) *peer {
	p := &peer{addr: netip.AddrPortFrom(netip.MustParseAddr("198.51.100.7"), uint16(50000+len(w.peers)))}
	pl := newPlayer(w.server, session.ClientConfig{}, func(_ netip.AddrPort, b []byte) {
		p.out = append(p.out, bytes.Clone(b))
	}, nil)
	p.m = newModel(pl, NewControls(0), func() time.Time { return w.now })
	w.peers = append(w.peers, p)
	p.update(tea.WindowSizeMsg{Width: cols, Height: rows})
	return p
}

// update applies msg to p's model, which must return itself.
func (p *peer) update(msg tea.Msg) tea.Cmd {
	m, cmd := p.m.Update(msg)
	if m != tea.Model(p.m) {
		panic("Update returned another model")
	}
	return cmd
}

// step is one frame: every model's frame, the server's tick with a ship
// for each player that joins (§10), and what the server sent delivered.
func (w *world) step() {
	for _, p := range w.peers {
		p.update(frameMsg{})
		for _, b := range p.out {
			w.srv.Receive(b, p.addr, w.now)
		}
		p.out = nil
	}
	for ev := range w.srv.Events() {
		p := w.peerOf(ev.Conn)
		switch ev.Kind {
		case session.EventPlayerJoined:
			if _, err := w.srv.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 150, 150, 0); err != nil {
				w.t.Fatal(err)
			}
		case session.EventInput:
			p.inputs = append(p.inputs, ev.Input.Actions)
		case session.EventPlayerLeft:
			p.left = &ev
		}
	}
	w.srv.Tick(w.now)
	w.now = w.now.Add(frameTime)
	for _, p := range w.peers {
		for _, b := range w.toPeer[p.addr] {
			p.update(datagramMsg{b: b, from: w.server})
		}
		delete(w.toPeer, p.addr)
	}
}

// peerOf finds the peer of connection id by its address.
func (w *world) peerOf(conn uint32) *peer {
	st, ok := w.srv.ConnStats(conn)
	if !ok {
		st, _ = w.srv.ConnStats(conn)
	}
	for _, p := range w.peers {
		if p.addr == st.Addr {
			return p
		}
	}
	w.t.Fatalf("no peer for connection %d", conn)
	return nil
}

// until steps until cond holds, failing after max frames.
func (w *world) until(what string, max int, cond func() bool) {
	w.t.Helper()
	for range max {
		if cond() {
			return
		}
		w.step()
	}
	w.t.Fatalf("%s: not within %d frames", what, max)
}

// frames steps n frames.
func (w *world) frames(n int) {
	for range n {
		w.step()
	}
}

func (p *peer) playing() bool { return p.m.player.client.State() == session.Playing }

// screen is the view's text, colours stripped.
func (p *peer) screen() string { return sgrRE.ReplaceAllString(p.m.View().Content, "") }

var sgrRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

func keyPress(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Text: string(code)} }

// The client joins, is sent the world (§10) and sends exactly one Input
// per frame from then on, keys or not (§7.1); the screen fills the
// terminal, HUD and help line included.
func TestModelOneInputPerFrame(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	w.until("playing", 120, p.playing)
	w.frames(2)
	before := len(p.inputs)
	w.frames(60)
	if got := len(p.inputs) - before; got != 60 {
		t.Errorf("60 frames sent %d Inputs, want 60", got)
	}
	lines := strings.Split(p.screen(), "\n")
	if len(lines) != 30 {
		t.Fatalf("%d lines on a 30-line terminal", len(lines))
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > 100 {
			t.Errorf("line %d has %d columns, more than 100", i, n)
		}
	}
	if last := lines[29]; !strings.Contains(last, "q quit") || !strings.Contains(last, "repeat keys") {
		t.Errorf("help line %q lacks the keys or the key mode", last)
	}
}

// A resize redraws at the new size at once.
func TestModelResize(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	w.until("playing", 120, p.playing)
	for _, size := range [][2]int{{60, 20}, {120, 40}, {10, 3}, {30, 1}} {
		p.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(p.screen(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if n := len([]rune(l)); n > size[0] {
				t.Errorf("%dx%d: line %d has %d columns", size[0], size[1], i, n)
			}
		}
	}
	p.update(tea.WindowSizeMsg{Width: 0, Height: 0})
	if s := p.screen(); s != "" {
		t.Errorf("a 0x0 terminal shows %q", s)
	}
}

// heldRun draws inputs as one character per frame: # where a is held.
func heldRun(inputs []rtype.Actions, a rtype.Actions) string {
	var b strings.Builder
	for _, in := range inputs {
		if in.Has(a) {
			b.WriteByte('#')
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// Holding Right where the terminal sends repeats (a press, the system's
// first-repeat delay, then a repeat every 30 ms) holds Right in every
// frame, without a stop, until 150 ms after the last repeat.
func TestModelHoldRightRepeatMode(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	w.until("playing", 120, p.playing)
	w.frames(2)
	start := len(p.inputs)
	p.update(tea.KeyPressMsg{Code: tea.KeyRight})
	w.frames(27) // 450 ms: the system's delay before the first repeat
	for range 30 {
		p.update(tea.KeyPressMsg{Code: tea.KeyRight})
		w.frames(2)
	}
	w.frames(20)
	got := heldRun(p.inputs[start:], rtype.ActionRight)
	// The last repeat comes at frame 85; Right is released at the first
	// frame 150 ms after it, frame 94 + 1.
	want := strings.Repeat("#", 95) + strings.Repeat(".", 12)
	if got != want {
		t.Errorf("Right per frame:\n got %s\nwant %s", got, want)
	}
}

// With the Kitty keyboard protocol, Right is held from press to release.
func TestModelHoldRightKittyMode(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	p.update(tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes | ansi.KittyReportEventTypes})
	w.until("playing", 120, p.playing)
	if s := p.screen(); !strings.Contains(s, "kitty keys") {
		t.Errorf("help line does not say kitty keys:\n%s", s)
	}
	w.frames(2)
	start := len(p.inputs)
	p.update(tea.KeyPressMsg{Code: tea.KeyRight})
	w.frames(120)
	p.update(tea.KeyPressMsg{Code: tea.KeyRight, IsRepeat: true})
	w.frames(10)
	p.update(tea.KeyReleaseMsg{Code: tea.KeyRight})
	w.frames(10)
	if got, want := heldRun(p.inputs[start:], rtype.ActionRight), strings.Repeat("#", 130)+strings.Repeat(".", 10); got != want {
		t.Errorf("Right per frame:\n got %s\nwant %s", got, want)
	}
}

// A terminal without enhancements stays in repeat mode; a release event
// shows the protocol is there after all.
func TestModelKeyModeSwitch(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	p.update(tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes})
	if p.m.controls.Mode() != RepeatMode {
		t.Error("disambiguation alone switched to KittyMode")
	}
	p.update(tea.KeyReleaseMsg{Code: 'd', Text: "d"})
	if p.m.controls.Mode() != KittyMode {
		t.Error("a release did not switch to KittyMode")
	}
}

// One Space press in repeat mode is one shot: Shoot set for one frame,
// cleared the next, when the missile fires (§7.1).
func TestModelSpaceShootsOnce(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	w.until("playing", 120, p.playing)
	w.frames(2)
	start := len(p.inputs)
	p.update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	w.frames(10)
	if got, want := heldRun(p.inputs[start:], rtype.ActionShoot), "#........."; got != want {
		t.Errorf("Shoot per frame: got %s, want %s", got, want)
	}
}

// WASD moves as the arrows do, in either case; other keys do nothing.
func TestMapKey(t *testing.T) {
	tests := []struct {
		k      tea.Key
		action keyAction
		c      Control
	}{
		{tea.Key{Code: tea.KeyUp}, keyControl, Up},
		{tea.Key{Code: tea.KeyDown}, keyControl, Down},
		{tea.Key{Code: tea.KeyLeft}, keyControl, Left},
		{tea.Key{Code: tea.KeyRight}, keyControl, Right},
		{tea.Key{Code: tea.KeySpace, Text: " "}, keyControl, Shoot},
		{tea.Key{Code: 'w', Text: "w"}, keyControl, Up},
		{tea.Key{Code: 'a', Text: "a"}, keyControl, Left},
		{tea.Key{Code: 's', Text: "s"}, keyControl, Down},
		{tea.Key{Code: 'd', Text: "d"}, keyControl, Right},
		{tea.Key{Code: 'D', Text: "D"}, keyControl, Right},
		{tea.Key{Code: 'q', Text: "q"}, keyQuit, 0},
		{tea.Key{Code: 'c', Mod: tea.ModCtrl}, keyQuit, 0},
		{tea.Key{Code: 'd', Mod: tea.ModCtrl}, keyNone, 0},
		{tea.Key{Code: 'x', Text: "x"}, keyNone, 0},
		{tea.Key{Code: tea.KeyEnter}, keyExit, 0},
		{tea.Key{Code: tea.KeyEscape}, keyExit, 0},
		{tea.Key{Code: tea.KeyTab}, keyNone, 0},
	}
	for _, tt := range tests {
		if a, c := mapKey(tt.k); a != tt.action || c != tt.c {
			t.Errorf("%s: got %d %d, want %d %d", tt.k, a, c, tt.action, tt.c)
		}
	}
}

// q and Ctrl-C quit: the program stops and the server hears Disconnect
// reason 1, client quit (§7.3).
func TestModelQuit(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{keyPress('q'), {Code: 'c', Mod: tea.ModCtrl}} {
		t.Run(k.String(), func(t *testing.T) {
			w := newWorld(t, session.ServerConfig{})
			p := w.join(100, 30)
			w.until("playing", 120, p.playing)
			cmd := p.update(k)
			if cmd == nil {
				t.Fatal("no command")
			}
			if _, ok := cmd().(tea.QuitMsg); !ok {
				t.Fatal("the command is not tea.Quit")
			}
			w.step()
			if p.left == nil || p.left.Close != session.CloseDisconnect || p.left.Disconnect != rtype.DisconnectClientQuit {
				t.Fatalf("the server saw %+v, want Disconnect reason 1", p.left)
			}
			if p.m.player.err != nil {
				t.Errorf("a quit is a failure: %v", p.m.player.err)
			}
		})
	}
}

// A session that fails is shown on the screen, not ended: the HUD says
// why, once, the help line how to exit; a key held when it failed, or any
// other, does not quit, and q, Enter, Esc and Ctrl-C do.
func TestModelFailures(t *testing.T) {
	tests := []struct {
		name   string
		frames int
		feed   func(w *world, p *peer)
		err    error
		reason string
	}{
		{"rejected (§4.4)", 1, func(w *world, p *peer) {
			p.update(datagramMsg{b: rtype.AppendRejected(nil), from: w.server})
		}, session.ErrRejected, "rejected by the server"},
		{"no Welcome within 10 s (§4.2)", 11 * 60, nil, session.ErrTimedOut, "no answer from 192.0.2.1:4242 (timed out)"},
		{"socket", 1, func(w *world, p *peer) {
			p.update(socketErrMsg{SocketError{errors.New("boom")}})
		}, session.ErrSocket, "session: socket: boom"},
	}
	stay := []tea.KeyPressMsg{
		{Code: tea.KeyRight},                 // a held key's repeat, as most terminals send it
		{Code: tea.KeyRight, IsRepeat: true}, // and as the Kitty protocol does
		{Code: 'q', Text: "q", IsRepeat: true},
		keyPress('x'), keyPress(' '),
	}
	exits := []tea.KeyPressMsg{keyPress('q'), {Code: tea.KeyEnter}, {Code: tea.KeyEscape}, {Code: 'c', Mod: tea.ModCtrl}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, session.ServerConfig{})
			p := w.join(120, 30)
			if !strings.Contains(p.screen(), "connecting to 192.0.2.1:4242") {
				t.Errorf("the screen does not say connecting:\n%s", p.screen())
			}
			p.update(tea.KeyPressMsg{Code: tea.KeyRight}) // held across the failure
			if tt.feed != nil {
				tt.feed(w, p)
			}
			for range tt.frames {
				p.update(frameMsg{}) // no server: nothing delivered
				w.now = w.now.Add(frameTime)
			}
			if !errors.Is(p.m.player.err, tt.err) {
				t.Errorf("err = %v, want %v", p.m.player.err, tt.err)
			}
			s := p.screen()
			lines := strings.Split(s, "\n")
			if n := strings.Count(s, tt.reason); n != 1 || !strings.Contains(lines[len(lines)-2], tt.reason) {
				t.Errorf("the screen says %q %d times, want once, on the HUD:\n%s", tt.reason, n, s)
			}
			if help := lines[len(lines)-1]; help != exitHelp {
				t.Errorf("help line %q, want %q", help, exitHelp)
			}
			for _, k := range stay {
				if cmd := p.update(k); cmd != nil {
					t.Errorf("%v (repeat %v) after the failure returned a command", k, k.IsRepeat)
				}
			}
			for _, k := range exits {
				if cmd := p.update(k); cmd == nil {
					t.Errorf("%v after the failure does not quit", k)
				} else if _, ok := cmd().(tea.QuitMsg); !ok {
					t.Errorf("%v: the command is not tea.Quit", k)
				}
			}
			p.update(tea.WindowSizeMsg{Width: 120, Height: 1}) // no HUD: the help line says why
			if s, want := p.screen(), tt.reason+": "+exitHelp; s != want {
				t.Errorf("one line: %q, want %q", s, want)
			}
		})
	}
}

// A client welcomed while a slot was free, whose first packet finds it
// taken, waits for a slot and says so until the other player leaves (§10).
func TestModelWaitingForASlot(t *testing.T) {
	w := newWorld(t, session.ServerConfig{MaxPlayers: 1})
	first, second := w.join(100, 30), w.join(100, 30) // both welcomed
	w.until("first playing", 120, first.playing)
	if second.playing() {
		t.Fatal("two players in one slot")
	}
	w.frames(30)
	if s := second.screen(); !strings.Contains(s, "waiting for a slot") {
		t.Errorf("the screen does not say waiting:\n%s", s)
	}
	first.update(keyPress('q'))
	w.until("second playing", 120, second.playing)
	w.step() // the screen is drawn at each frame
	if s := second.screen(); strings.Contains(s, "waiting") {
		t.Errorf("still waiting once playing:\n%s", s)
	}
}

// Losing focus releases what the terminal will not report released.
func TestModelBlurReleases(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	p.update(tea.KeyboardEnhancementsMsg{Flags: ansi.KittyReportEventTypes})
	w.until("playing", 120, p.playing)
	p.update(tea.KeyPressMsg{Code: tea.KeyUp})
	w.frames(3)
	p.update(tea.BlurMsg{})
	start := len(p.inputs)
	w.frames(3)
	if got := heldRun(p.inputs[start:], rtype.ActionUp); got != "..." {
		t.Errorf("Up after blur: %s", got)
	}
}

// The view asks for the alternate screen and key releases.
func TestModelView(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(80, 24)
	v := p.m.View()
	if !v.AltScreen || !v.KeyboardEnhancements.ReportEventTypes {
		t.Errorf("view: alt screen %v, report event types %v", v.AltScreen, v.KeyboardEnhancements.ReportEventTypes)
	}
}

// The own ship is drawn where the player's Inputs put it on the frame of
// the first Input holding Right, before any Snapshot could show it moved
// (docs/client.md): this server, which runs no game, never moves it.
func TestModelPredictsOwnShip(t *testing.T) {
	w := newWorld(t, session.ServerConfig{})
	p := w.join(100, 30)
	own := func() (session.Entity, bool) {
		id, ok := p.m.player.client.OwnShip()
		for _, e := range p.m.player.view.At(w.now) {
			if ok && e.ID == id {
				return e, true
			}
		}
		return session.Entity{}, false
	}
	w.until("the own ship drawn", 120, func() bool { _, ok := own(); return ok })
	w.frames(10)
	before, _ := own()
	p.update(tea.KeyPressMsg{Code: tea.KeyRight})
	w.step()
	after, _ := own()
	if d := after.X - before.X; d < 4.9 || d > 5.1 || after.Y != before.Y {
		t.Errorf("one frame holding Right drew the ship from (%.2f, %.2f) to (%.2f, %.2f), want 5 px right",
			before.X, before.Y, after.X, after.Y)
	}
}
