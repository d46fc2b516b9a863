package rtypetest

import (
	"encoding/binary"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/timeheap"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/session"
)

// Epoch is the virtual time a Sim starts at.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// maxInFlight bounds the datagrams a Sim holds at once, lest a loop that
// sends without ever advancing grow memory: past it they are dropped.
const maxInFlight = 1 << 16

// Sim is an in-memory network of sans-I/O endpoints with its own clock: no
// goroutine, no socket, no wall time. Endpoints send through the SendFunc
// the Sim gives them; a datagram waits, in a copy, until [Sim.Advance]
// reaches its delivery time, and is then handed to the receiver's Receive
// at that virtual time. Deliveries happen in a fixed order, by time, then
// by the order the datagrams were sent, and every random draw comes from
// the Sim's seed (one stream per direction, see [Sim.Impair]): a run
// repeats exactly for a seed and the same calls.
//
// A Sim is not safe for concurrent use, and a SendFunc it gave must not be
// called from a Receive it delivers to other than through the endpoint
// itself, as session's SendFunc rule already says.
type Sim struct {
	route
	now  time.Time
	ends map[netip.AddrPort]func(b []byte, from netip.AddrPort, now time.Time)
	due  timeheap.Heap[datagram]
	pool [][]byte
}

// NewSim returns a Sim at [Epoch] whose links draw from seed.
func NewSim(seed uint64) *Sim {
	return &Sim{
		route: route{links: newLinks(seed, Epoch)},
		now:   Epoch,
		ends:  make(map[netip.AddrPort]func([]byte, netip.AddrPort, time.Time)),
	}
}

// Now returns the Sim's virtual time.
func (s *Sim) Now() time.Time { return s.now }

// Attach makes receive the endpoint at addr and returns the SendFunc it
// sends through; a nil receive takes nothing, as a send-only endpoint. It
// fails with ErrAddrInUse or ErrInvalidAddr. The datagram handed to
// receive is valid only during the call. It serves
// any sans-I/O implementation; NewServer and NewClient attach session's.
func (s *Sim) Attach(addr netip.AddrPort, receive func(b []byte, from netip.AddrPort, now time.Time)) (session.SendFunc, error) {
	if !addr.IsValid() {
		return nil, ErrInvalidAddr
	}
	if _, taken := s.ends[addr]; taken {
		return nil, ErrAddrInUse
	}
	s.ends[addr] = receive
	return func(to netip.AddrPort, b []byte) { s.send(addr, to, b) }, nil
}

// NewServer returns a session server at addr on the Sim, or nil if the
// address is taken or invalid. Unless cfg sets a ValidationKey, the key
// comes from the Sim's seed and the address, so that connection ids, and
// with them the whole run, repeat for a seed (§4.3, §12).
func (s *Sim) NewServer(addr netip.AddrPort, cfg session.ServerConfig) *session.Server {
	var srv *session.Server
	send, err := s.Attach(addr, func(b []byte, from netip.AddrPort, now time.Time) { srv.Receive(b, from, now) })
	if err != nil {
		return nil
	}
	if len(cfg.ValidationKey) == 0 {
		k := linkSeed(s.links.seed, addr, addr)
		cfg.ValidationKey = binary.BigEndian.AppendUint64([]byte("rtypetest"), k)
	}
	srv = session.NewServer(cfg, send)
	return srv
}

// NewClient returns a session client at addr of the server at server, or
// nil if the address is taken or invalid.
func (s *Sim) NewClient(addr, server netip.AddrPort, cfg session.ClientConfig) *session.Client {
	var c *session.Client
	send, err := s.Attach(addr, func(b []byte, from netip.AddrPort, now time.Time) { c.Receive(b, from, now) })
	if err != nil {
		return nil
	}
	c = session.NewClient(server, cfg, send)
	return c
}

// Impair sets the model of the direction from → to; the zero Params make
// it perfect again. It fails with p.Validate's error.
func (s *Sim) Impair(from, to netip.AddrPort, p netem.Params) error {
	return s.links.impair(from, to, p)
}

// Partition cuts both directions between a and b until Heal: every
// datagram between them is dropped, as when a client vanishes.
func (s *Sim) Partition(a, b netip.AddrPort) { s.links.partition(a, b, true) }

// Heal ends a Partition of a and b.
func (s *Sim) Heal(a, b netip.AddrPort) { s.links.partition(a, b, false) }

// Stats returns what the direction from → to carried so far.
func (s *Sim) Stats(from, to netip.AddrPort) LinkStats { return s.links.stats(from, to) }

// Capture records every datagram sent from now on into c, at its virtual
// send time; nil stops recording.
func (s *Sim) Capture(c *Capture) { s.capture = c }

// SetTap makes t see, and maybe drop, every datagram sent from now on; nil
// removes it. A capture records what t drops too: it was sent.
func (s *Sim) SetTap(t Tap) { s.tap = t }

// Advance moves the clock d later, delivering every datagram due by then
// in order, each at its own time; what a Receive sends in answer is
// delivered in the same Advance if due by then. The caller then ticks the
// endpoints at [Sim.Now].
func (s *Sim) Advance(d time.Duration) {
	end := s.now.Add(max(d, 0))
	for s.due.Len() > 0 && !s.due.Next().After(end) {
		at, dg := s.due.Pop()
		s.now = at
		if recv, ok := s.ends[dg.to]; ok && recv != nil {
			s.links.get(dg.from, dg.to).stats.Delivered++
			recv(dg.b, dg.from, at)
		} else {
			s.links.get(dg.from, dg.to).stats.dropped[DropNoListener]++
		}
		s.pool = append(s.pool, dg.b[:0])
	}
	s.now = end
}

// send takes a datagram from an endpoint: the route decides when, if
// ever, each copy is delivered, and the copies wait in the heap.
func (s *Sim) send(from, to netip.AddrPort, b []byte) {
	c := s.route.carry(s.now, from, to, b)
	for _, wait := range c.wait[:c.n] {
		s.schedule(c.l, from, to, b, wait)
	}
}

func (s *Sim) schedule(l *link, from, to netip.AddrPort, b []byte, wait time.Duration) {
	if s.due.Len() >= maxInFlight {
		l.stats.dropped[DropFull]++
		return
	}
	var buf []byte
	if n := len(s.pool); n > 0 {
		buf, s.pool = s.pool[n-1], s.pool[:n-1]
	}
	s.due.Push(s.now.Add(wait), datagram{from: from, to: to, b: append(buf, b...)})
}

// datagram is one copy in flight, waiting in the Sim's heap for its
// delivery time.
type datagram struct {
	from, to netip.AddrPort
	b        []byte
}
