//go:build !js

package main

import (
	"iter"
	"net/netip"
	"slices"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/playfield"
	"github.com/rtypeproto/rtype/session"
)

// player is the session side of the program: one session.Client, driven
// by the model one frame at a time (§7.1, §10), which knows how the
// session went, and the world drawn smoothly: the client's session.View,
// the own ship predicted by the example game's rules (docs/client.md).
type player struct {
	client *session.Client
	view   *session.View
	hooks  *session.Hooks // the simulated loss, nil for none
	tick   uint32         // serverTick of the latest Snapshot (§8.1)
	quit   bool           // the user quit: Close sent Disconnect reason 1 (§7.3)
	err    error          // why the session failed, once it did
}

// newPlayer returns a player of server that hands its datagrams to send,
// through h when not nil: the player drives its client itself, so it runs
// the hooks a UDP binding would.
func newPlayer(server netip.AddrPort, cfg session.ClientConfig, send session.SendFunc, h *session.Hooks) *player {
	if h != nil {
		inner := send
		send = func(to netip.AddrPort, b []byte) {
			if h.OnSend(to, b) {
				inner(to, b)
			}
		}
	}
	cfg.View = session.NewView(session.ViewConfig{})
	return &player{client: session.NewClient(server, cfg, send), view: cfg.View, hooks: h}
}

// world returns the entities to draw at now: every one at the view's
// render time, a buffer behind the server, but the own ship, where the
// Inputs sent put it.
func (p *player) world(now time.Time) iter.Seq[session.Entity] {
	return slices.Values(p.view.At(now))
}

// receive hands the client one datagram from the network.
func (p *player) receive(b []byte, from netip.AddrPort, now time.Time) {
	if p.hooks == nil || p.hooks.OnReceive(from, b) {
		p.client.Receive(b, from, now)
	}
}

// frame is one frame at now: the client's timers, its events, then the
// frame's one Input, sent with nothing held too (§7.1). While Connecting
// there is nothing to send on.
func (p *player) frame(a rtype.Actions, now time.Time) {
	if p.done() {
		return
	}
	p.client.Update(now)
	for ev := range p.client.Events() {
		switch ev.Kind {
		case session.EventSnapshot:
			p.tick = ev.Tick
		case session.EventRejected:
			p.err = session.ErrRejected
		case session.EventTimedOut:
			p.err = session.ErrTimedOut
		}
	}
	if p.client.State().Connected() {
		_ = p.client.SendInput(a, now) // fails only when not connected, just checked
	}
}

// close ends the session as the user asked: Disconnect reason 1, client
// quit (§7.3), from a connected client; nothing from a failed one.
func (p *player) close(now time.Time) {
	if p.err == nil {
		p.quit = true
	}
	p.client.Close(now)
}

// fail ends the session on a socket error, which wraps session.ErrSocket.
func (p *player) fail(err error, now time.Time) {
	if p.err == nil && !p.quit {
		p.err = err
	}
	p.client.Close(now)
}

// done reports whether the session is over, failed or quit.
func (p *player) done() bool { return p.err != nil || p.quit }

// status says on the HUD where the session is, empty while playing.
func (p *player) status() string {
	switch {
	case p.quit:
		return "quitting"
	case p.err != nil:
		return p.failure()
	}
	switch p.client.State() {
	case session.Idle, session.Connecting:
		return "connecting to " + p.client.Server().String()
	case session.Waiting:
		return "waiting for a slot"
	}
	return ""
}

// failure says why the session failed, for the screen and the exit message.
func (p *player) failure() string {
	switch p.client.CloseReason() {
	case session.CloseRejected:
		return "rejected by the server"
	case session.CloseGaveUp:
		return "no answer from " + p.client.Server().String() + " (timed out)"
	case session.CloseTimeout:
		return "the server went silent (timed out)"
	}
	if p.err != nil {
		return p.err.Error()
	}
	return ""
}

// hud returns the counters the HUD shows.
func (p *player) hud() playfield.HUD {
	st := p.client.Stats()
	h := playfield.HUD{
		Tick:   p.tick,
		RTT:    p.client.Stats().SRTT,
		Loss:   st.Loss(),
		Status: p.status(),
	}
	h.Count(p.client.Entities())
	return h
}
