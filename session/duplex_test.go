package session

import (
	"maps"
	"net/netip"
	"slices"
	"testing"
	"time"
)

// duplex is one Server and one Client on an in-memory link with a fixed
// one-way delay, where dark, when set, loses every datagram sent in the
// direction it names at that time: a stalled link (§13.3, §13.4).
type duplex struct {
	t        testing.TB
	srv      *Server
	cli      *Client
	now      time.Time
	delay    time.Duration
	dark     func(now time.Time, toServer bool) bool
	inflight []timedWire
	left     []ServerEvent // the server's EventPlayerLeft
}

// timedWire is a datagram in flight, due at at.
type timedWire struct {
	at       time.Time
	from, to netip.AddrPort
	b        []byte
}

const frame = time.Second / 60

func newDuplex(t testing.TB, cfg ServerConfig, ccfg ClientConfig, delay time.Duration) *duplex {
	d := &duplex{t: t, now: t0, delay: delay}
	d.srv = NewServer(cfg, d.sender(serverAddr))
	d.cli = NewClient(serverAddr, ccfg, d.sender(addrA))
	return d
}

func (d *duplex) sender(from netip.AddrPort) SendFunc {
	return func(to netip.AddrPort, b []byte) {
		if d.dark != nil && d.dark(d.now, to == serverAddr) {
			return
		}
		d.inflight = append(d.inflight, timedWire{at: d.now.Add(d.delay), from: from, to: to, b: slices.Clone(b)})
	}
}

// step runs one 60 Hz frame: what arrived is received, game moves the
// world, the client sends its Input and the server ticks.
func (d *duplex) step(game func(s *Server)) {
	d.now = d.now.Add(frame)
	var due []timedWire
	due, d.inflight = splitDue(d.inflight, d.now)
	for _, g := range due {
		if g.to == serverAddr {
			d.srv.Receive(g.b, g.from, d.now)
		} else {
			d.cli.Receive(g.b, g.from, d.now)
		}
	}
	for e := range d.srv.Events() {
		if e.Kind == EventPlayerLeft {
			d.left = append(d.left, e)
		}
	}
	for range d.cli.Events() {
	}
	if game != nil {
		game(d.srv)
	}
	d.cli.Update(d.now)
	_ = d.cli.SendInput(0, d.now)
	d.srv.Tick(d.now)
}

// splitDue returns the datagrams delivered by now, in the order sent, and
// the others.
func splitDue(in []timedWire, now time.Time) (due, rest []timedWire) {
	for _, g := range in {
		if g.at.After(now) {
			rest = append(rest, g)
		} else {
			due = append(due, g)
		}
	}
	return due, rest
}

// serverIDs and clientIDs are the entities each side holds.
func (d *duplex) serverIDs() map[uint32]bool {
	out := map[uint32]bool{}
	for i := range d.srv.world.ents {
		if e := &d.srv.world.ents[i]; !e.dead {
			out[e.id] = true
		}
	}
	return out
}

func (d *duplex) clientIDs() map[uint32]bool {
	return maps.Collect(func(yield func(uint32, bool) bool) {
		for e := range d.cli.Entities() {
			if !yield(e.ID, true) {
				return
			}
		}
	})
}
