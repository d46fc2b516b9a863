// Package play is the page's game loop without the browser: the session
// client and its smooth view, driven one frame at a time through the
// client's sans-I/O API (docs/client.md), with the figures the page's HUD
// shows and its tests read. The page's program (package client, js/wasm
// only) feeds it the WebTransport session's datagrams and draws what it
// returns; everything here also runs, and is tested, natively.
package play

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Gateway stands for the server's address: every datagram comes through
// the gateway's one session, from the one server it relays to (§3).
var Gateway = netip.AddrPortFrom(netip.IPv4Unspecified(), 1)

// Player is one browser's player: its client, view and controls.
type Player struct {
	client   *session.Client
	view     *session.View
	held     rtype.Actions
	quit     bool
	frames   frameClock
	rounds   frameClock // arrivals of Snapshot rounds
	lastTick uint32
	gw       GatewayFigures
	first    time.Time // the first frame drawn with the world
	start    time.Time
	loadMs   float64
	why      string        // why the session was lost, for the HUD
	rtt      time.Duration // the latest Ping's round trip (§7.2)
}

// New returns a player whose client hands its datagrams to send; the first
// Frame sends Hello (§4.2).
func New(send func([]byte), now time.Time) *Player {
	view := session.NewView(session.ViewConfig{})
	cfg := session.ClientConfig{View: view, ExpireUnlisted: time.Second}
	c := session.NewClient(Gateway, cfg, func(_ netip.AddrPort, b []byte) { send(b) })
	return &Player{client: c, view: view, start: now}
}

// Receive hands the client one datagram from the session.
func (p *Player) Receive(b []byte, now time.Time) { p.client.Receive(b, Gateway, now) }

// Hold sets the controls held now (§7.1).
func (p *Player) Hold(a rtype.Actions) { p.held = a &^ rtype.ActionsReserved }

// Frame runs one frame at now: the client's timers and events, the
// frame's Input, nothing held too (§7.1), and returns the world to draw,
// the own ship predicted.
func (p *Player) Frame(now time.Time) []session.Entity {
	p.frames.tick(now)
	if p.quit {
		return nil
	}
	p.client.Update(now)
	for ev := range p.client.Events() {
		// The view and the entity table hold what the events say; the
		// rounds' arrivals say how evenly Snapshots come (§8.1).
		switch {
		case ev.Kind == session.EventSnapshot && ev.Tick != p.lastTick:
			p.rounds.tick(ev.At)
			p.lastTick = ev.Tick
		case ev.Kind == session.EventPong:
			p.rtt = ev.RTT
		case ev.Kind == session.EventRejected:
			p.why = "the server is full (Rejected, §4.4)"
		case ev.Kind == session.EventTimedOut:
			p.why = "no answer from the server"
		}
	}
	if p.client.State().Connected() {
		_ = p.client.SendInput(p.held, now) // connected: it cannot fail
	}
	ents := p.view.At(now)
	if p.first.IsZero() && p.client.State() == session.Playing && len(ents) > 0 {
		p.first = now
	}
	return ents
}

// Quit ends the session as the player asked: Disconnect, reason 1 (§7.3).
func (p *Player) Quit(now time.Time) {
	p.quit = true
	p.client.Close(now)
}

// Lost ends the session the network took away, as the gateway closing
// it: nothing can be sent any more; why says so on the HUD.
func (p *Player) Lost(why string, now time.Time) {
	if p.Done() {
		return
	}
	p.why = why
	p.Quit(now)
}

// Done reports whether the session is over.
func (p *Player) Done() bool { return p.quit || p.client.State() == session.Closed }

// Own returns the own ship's id, if known, and where the server last put
// it (§8.1), not the prediction.
func (p *Player) Own() (session.Entity, bool) {
	id, ok := p.client.OwnShip()
	if !ok {
		return session.Entity{}, false
	}
	return p.client.Entity(id)
}

// SetLoad records how long the page took to load and start the program,
// in ms from the navigation, for the time to the first frame.
func (p *Player) SetLoad(ms float64) { p.loadMs = ms }

// SetGateway records the gateway's latest figures for the HUD.
func (p *Player) SetGateway(g GatewayFigures) { p.gw = g }

// GatewayFigures are what the gateway reports about the session each
// second.
type GatewayFigures struct {
	Up       uint64 `json:"up"`
	Down     uint64 `json:"down"`
	Dropped  uint64 `json:"dropped"`
	Sessions int64  `json:"sessions"`
	Quit     bool   `json:"quit,omitempty"`
}
