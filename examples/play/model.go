//go:build !js

package main

import (
	"net/netip"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rtypeproto/rtype/internal/playfield"
)

// Messages of the program, besides those of the terminal.
type (
	// frameMsg starts a frame: tickFrames sends one every frame time,
	// whatever the keys do.
	frameMsg struct{}
	// datagramMsg is one datagram from the socket, a copy of its own.
	datagramMsg struct {
		b    []byte
		from netip.AddrPort
	}
	// socketErrMsg says the socket failed; err wraps session.ErrSocket.
	socketErrMsg struct{ err error }
)

// model is the program's state. Everything, the session client included,
// changes only in Update, on the program's one goroutine (and in main's
// last Close, once the program ended); time comes from clock, so that
// tests can run it on a fake one.
type model struct {
	player   *player
	controls Controls
	clock    func() time.Time

	cols, rows int
	frame      playfield.Frame
	buf        []byte
	content    string // the view, drawn at each frame and resize
}

// newModel returns the model of a game played by p.
func newModel(p *player, c Controls, clock func() time.Time) *model {
	return &model{player: p, controls: c, clock: clock}
}

// Init does nothing: frames come from tickFrames, the terminal's size
// with the first WindowSizeMsg.
func (m *model) Init() tea.Cmd { return nil }

// Update applies one message.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		now := m.clock()
		m.player.frame(m.controls.Frame(now), now)
		m.draw()
	case datagramMsg:
		m.player.receive(msg.b, msg.from, m.clock())
	case socketErrMsg:
		m.player.fail(msg.err, m.clock())
		m.draw()
	case tea.WindowSizeMsg:
		m.cols, m.rows = msg.Width, msg.Height
		m.draw()
	case tea.KeyboardEnhancementsMsg:
		if msg.SupportsEventTypes() {
			m.controls.SetMode(KittyMode)
		}
	case tea.KeyPressMsg:
		return m, m.press(tea.Key(msg))
	case tea.KeyReleaseMsg:
		m.release(tea.Key(msg))
	case tea.BlurMsg:
		m.controls.ReleaseAll() // the releases will not be reported
	}
	return m, nil
}

// press handles a key press: a control, or quitting. Once the session has
// failed, only a press of q, Enter, Esc or Ctrl-C quits, never a repeat:
// a key held when it failed keeps repeating, and must not end the screen
// that says why.
func (m *model) press(k tea.Key) tea.Cmd {
	action, c := mapKey(k)
	if m.player.err != nil {
		if (action == keyQuit || action == keyExit) && !k.IsRepeat {
			return m.quit()
		}
		return nil
	}
	switch action {
	case keyControl:
		m.controls.Press(c, k.IsRepeat, m.clock())
	case keyQuit:
		return m.quit()
	}
	return nil
}

// quit ends the session, with Disconnect reason 1 from a connected client
// (§7.3), and the program.
func (m *model) quit() tea.Cmd {
	m.player.close(m.clock())
	return tea.Quit
}

// release handles a key release, which only the Kitty keyboard protocol
// reports: one shows the terminal uses it.
func (m *model) release(k tea.Key) {
	m.controls.SetMode(KittyMode)
	if action, c := mapKey(k); action == keyControl {
		m.controls.Release(c)
	}
}

// View shows the last frame drawn, on the alternate screen, asking the
// terminal for key releases (the Kitty keyboard protocol) and focus
// changes.
func (m *model) View() tea.View {
	v := tea.NewView(m.content)
	v.AltScreen = true
	v.KeyboardEnhancements.ReportEventTypes = true
	v.ReportFocus = true
	v.WindowTitle = "rtype play"
	return v
}
