package session

import (
	"bytes"
	"fmt"
	"iter"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// Addresses from the documentation ranges: nothing is ever sent there, the
// tests run on in-memory datagrams.
var (
	serverAddr = netip.MustParseAddrPort("192.0.2.1:4242")
	addrA      = netip.MustParseAddrPort("198.51.100.1:5001")
	addrB      = netip.MustParseAddrPort("198.51.100.2:5002")
	addrC      = netip.MustParseAddrPort("198.51.100.3:5003")
	t0         = time.Unix(1_700_000_000, 0)
)

type wire struct {
	to netip.AddrPort
	b  []byte
}

// capture records every datagram a side sends.
type capture struct{ out []wire }

func (c *capture) send(to netip.AddrPort, b []byte) {
	c.out = append(c.out, wire{to, bytes.Clone(b)})
}

// take returns and forgets what was sent so far.
func (c *capture) take() []wire {
	out := c.out
	c.out = nil
	return out
}

// to returns what was sent to a, and forgets everything sent.
func (c *capture) to(a netip.AddrPort) []wire {
	toA, _ := c.split(a)
	return toA
}

// split returns what was sent to a and what was sent elsewhere, and forgets
// everything sent.
func (c *capture) split(a netip.AddrPort) (toA, others []wire) {
	for _, w := range c.take() {
		if w.to == a {
			toA = append(toA, w)
		} else {
			others = append(others, w)
		}
	}
	return toA, others
}

func hello() []byte { return rtype.AppendHello(nil) }

// isHello reports whether b is exactly a valid Hello (§4.2).
func isHello(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeHello
}

// packet builds a connected packet; it fails the test if the codec refuses.
func packet(t testing.TB, h rtype.PacketHeader, msgs ...rtype.Message) []byte {
	t.Helper()
	b, err := h.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if b, err = rtype.AppendMessage(b, m); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// messages parses a datagram as a connected packet and returns its header
// and messages.
func messages(t testing.TB, b []byte) (rtype.PacketHeader, []rtype.RawMessage) {
	t.Helper()
	p, err := rtype.ParsePacket(b)
	if err != nil {
		t.Fatalf("sent an invalid packet % x: %v", b, err)
	}
	var ms []rtype.RawMessage
	for m := range p.Messages() {
		ms = append(ms, m)
	}
	return p.Header(), ms
}

// ofType returns the messages of type mt in the datagrams.
func ofType(t testing.TB, ws []wire, mt rtype.MessageType) []rtype.RawMessage {
	t.Helper()
	var out []rtype.RawMessage
	for _, w := range ws {
		_, ms := messages(t, w.b)
		for _, m := range ms {
			if m.Type == mt {
				out = append(out, m)
			}
		}
	}
	return out
}

func newServer(cfg ServerConfig) (*Server, *capture) {
	cp := &capture{}
	return NewServer(cfg, cp.send), cp
}

// join connects addr to s with a Hello and returns the connection id.
func join(t testing.TB, s *Server, cp *capture, addr netip.AddrPort, now time.Time) uint32 {
	t.Helper()
	cp.take() // what a waiting client was answered before is not the Welcome
	s.Receive(hello(), addr, now)
	out := cp.to(addr)
	if len(out) != 1 {
		t.Fatalf("Hello from %v: %d datagrams sent, want one Welcome", addr, len(out))
	}
	typ, id, err := rtype.ParseHandshake(out[0].b)
	if err != nil || typ != rtype.HandshakeWelcome {
		t.Fatalf("Hello from %v answered % x (%v), want Welcome", addr, out[0].b, err)
	}
	return id
}

// connect joins addr to s and sends the empty connected packet 1 that
// opens the connection (§4.3, §12); it returns the connection id.
func connect(t testing.TB, s *Server, cp *capture, addr netip.AddrPort, now time.Time) uint32 {
	t.Helper()
	id := join(t, s, cp, addr, now)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addr, now)
	if ok := isOpen(s, id); !ok {
		t.Fatalf("connection %d from %v not open after its first packet", id, addr)
	}
	return id
}

// events drains the events of kind k (every kind when k is 0).
func events[E interface{ kind() K }, K comparable](s interface{ Events() iter.Seq[E] }, k K) []E {
	var out []E
	var none K
	for e := range s.Events() {
		if k == none || e.kind() == k {
			out = append(out, e)
		}
	}
	return out
}

func decodeCreate(t testing.TB, m rtype.RawMessage) rtype.CreateEntity {
	t.Helper()
	var c rtype.CreateEntity
	if err := c.UnmarshalBinary(m.Payload); err != nil {
		t.Fatal(err)
	}
	return c
}

func decodeDestroy(t testing.TB, m rtype.RawMessage) rtype.DestroyEntity {
	t.Helper()
	var d rtype.DestroyEntity
	if err := d.UnmarshalBinary(m.Payload); err != nil {
		t.Fatal(err)
	}
	return d
}

// check verifies the entity table's invariants: one replica per entity and
// slot, the live and dead counts, the index, and that a dead entity is kept
// only while some client may hold it or has a copy in flight (§13.4).
func (w *world) check() error {
	if len(w.reps) != len(w.ents)*w.slots || w.index.n != len(w.ents) {
		return fmt.Errorf("%d entities, %d replicas for %d slots, %d indexed", len(w.ents), len(w.reps), w.slots, w.index.n)
	}
	live, dead := 0, 0
	for i := range w.ents {
		e := &w.ents[i]
		if j, ok := w.index.get(e.id); !ok || int(j) != i || e.id == 0 {
			return fmt.Errorf("entity %d at %d indexed at %d", e.id, i, j)
		}
		if !e.dead {
			live++
			continue
		}
		dead++
		for k := range w.slots {
			if r := w.rep(i, k); r.state == repPending || r.state == repCreating || r.state == repCreateDue || r.state == repHeld {
				return fmt.Errorf("dead entity %d in state %v for slot %d", e.id, r.state, k)
			}
		}
	}
	if live != len(w.ents)-w.nDead || dead != w.nDead {
		return fmt.Errorf("%d live and %d dead, counted %d dead", live, dead, w.nDead)
	}
	return nil
}

// isOpen reports whether connection id is open on s.
func isOpen(s *Server, id uint32) bool {
	cs, ok := s.ConnStats(id)
	return ok && cs.Open
}

// liveClosed counts the entries of t that still matter at now.
func liveClosed(t *closedTable, now time.Time) int {
	n := 0
	for i := range t.e {
		if t.e[i].live(now) {
			n++
		}
	}
	return n
}

func (e ClientEvent) kind() ClientEventKind { return e.Kind }
func (e ServerEvent) kind() ServerEventKind { return e.Kind }
