package wiremon

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// Role is the implementation's side of the exchange.
type Role uint8

const (
	// Server: the implementation is the server, its peers the clients.
	Server Role = iota
	// Client: the implementation is a client, at any address; the
	// server's addresses are the watched ones.
	Client
)

// Monitor judges every datagram between the implementation and its peers
// (see the package doc). It is safe for concurrent use; every table it
// keeps is bounded, whatever the implementation sends.
type Monitor struct {
	mu      sync.Mutex
	role    Role
	servers []netip.AddrPort
	start   time.Time
	lossy   bool

	datagrams, packets int // sent by the implementation
	connections        int // Welcomes seen
	conns              map[netip.AddrPort]*conn
	seen               [NumRules]Record
	// ents is the last position of each entity followed, ext how far
	// the positions went, bound the first evidence of the clamp
	// (positions.go).
	ents  entities
	ext   extent
	bound string
	// dec is the packet being judged, its messages' memory reused.
	dec wiredump.Decoded
	// breach is the first rule the datagram being judged broke, with
	// its words when words is set (by Saw, not by Note).
	breach    Rule
	breachWhy string
	words     bool
}

// Record is what a Monitor saw of one rule: how many times it judged it,
// how many times it was broken, and the first breach, in words.
type Record struct {
	Judged, Broken int
	First          string
}

// maxConns bounds the client addresses a Monitor follows, maxOffered the
// connections one address keeps.
const (
	maxConns   = 4096
	maxOffered = 8
)

// conn is what a Monitor knows of one client address: the connections
// Welcomes gave it, the latest last. Once the client sent a packet of one
// of them it is connected, and reads a Welcome as a packet (§3): no
// connection comes of it until the client says Hello again.
type conn struct {
	addr      netip.AddrPort
	ids       []numbering
	connected bool
}

// numbering follows the sequence numbers of the implementation's packets
// on one connection (§5.2).
type numbering struct {
	id   uint32
	last uint32 // 0 before its first packet
	// spent says last came on a datagram a receiver drops (its size, its
	// framing, another id), judged by a rule of its own: a valid copy of
	// it is no repeat.
	spent bool
	// again is set by a later Welcome of the same id: the next packet
	// either starts a new connection at 1 or continues this one.
	again bool
	// sum is the hash of the datagram that brought last, to tell a copy
	// the network made on a lossy path.
	sum uint64
}

// New returns a Monitor of an implementation in role r, its clock started.
func New(r Role) *Monitor {
	return &Monitor{role: r, start: time.Now(), conns: map[netip.AddrPort]*conn{},
		ents: entities{conns: map[connection]map[uint32]sample{}}}
}

// Lossy tells the Monitor that the path between it and the
// implementation may lose and duplicate datagrams, as a loaded socket
// does: a gap in a connection's numbering, or a datagram repeated byte
// for byte, is then no breach of §5.2. Without it the path is taken to
// be lossless, as loopback and an in-memory network are. It must be
// called before the first datagram: the Monitor hashes packets only once
// lossy, and a copy of a packet seen before would be taken for a breach.
func (w *Monitor) Lossy() {
	w.mu.Lock()
	w.lossy = true
	w.mu.Unlock()
}

// Watch adds server to the server's addresses: the datagrams to and from
// them are the ones the Monitor judges. A server has one; a client under
// test may be given several servers.
func (w *Monitor) Watch(server netip.AddrPort) {
	w.mu.Lock()
	w.servers = append(w.servers, server)
	w.mu.Unlock()
}

// Saw takes one datagram b from src to dst, at at. When the implementation
// sent it and it broke a rule, Saw returns the first rule it broke, with
// the breach in words; ok is false otherwise. Datagrams between other
// addresses are ignored.
func (w *Monitor) Saw(src, dst netip.AddrPort, b []byte, at time.Time) (r Rule, why string, broke bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.words = true
	return w.saw(src, dst, b, at)
}

// Note takes one datagram as Saw does, for a caller that reads only the
// Records: a breach is put in words only when it is a rule's first.
func (w *Monitor) Note(src, dst netip.AddrPort, b []byte, at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.words = false
	w.saw(src, dst, b, at)
}

func (w *Monitor) saw(src, dst netip.AddrPort, b []byte, at time.Time) (r Rule, why string, broke bool) {
	toServer := slices.Contains(w.servers, dst)
	if !toServer && !slices.Contains(w.servers, src) {
		return 0, "", false
	}
	client := src
	if !toServer {
		client = dst
	}
	w.breach, w.breachWhy = NumRules, ""
	c := w.conns[client]
	if toServer == (w.role == Client) {
		w.judge(client, c, b, at)
	}
	if toServer {
		w.client(c, b)
	} else {
		w.welcome(client, c, b)
	}
	return w.breach, w.breachWhy, w.breach < NumRules
}

// welcome notes a valid Welcome from the server to client (§4.3): a
// connection of its id or, for an id it had, maybe a new one.
func (w *Monitor) welcome(client netip.AddrPort, c *conn, b []byte) {
	typ, id, err := rtype.ParseHandshake(b)
	if err != nil || typ != rtype.HandshakeWelcome {
		return
	}
	if c == nil {
		if len(w.conns) >= maxConns {
			return
		}
		c = &conn{addr: client}
		w.conns[client] = c
	}
	if c.connected {
		return
	}
	w.connections++
	if n := c.find(id); n != nil {
		n.again = n.last != 0
		return
	}
	if len(c.ids) >= maxOffered {
		c.ids = c.ids[1:]
	}
	c.ids = append(c.ids, numbering{id: id})
}

// client follows what the client sends: a packet of a connection it was
// welcomed to connects it; a Hello starts it over. c is what the Monitor
// knows of the client's address, nil when no Welcome went to it.
func (w *Monitor) client(c *conn, b []byte) {
	if c == nil {
		return
	}
	if typ, _, err := rtype.ParseHandshake(b); err == nil && typ == rtype.HandshakeHello {
		c.connected = false
		return
	}
	if len(b) >= rtype.PacketHeaderSize && c.find(binary.BigEndian.Uint32(b)) != nil {
		c.connected = true
	}
}

func (c *conn) find(id uint32) *numbering {
	for i := range c.ids {
		if c.ids[i].id == id {
			return &c.ids[i]
		}
	}
	return nil
}

// judge applies every rule of a single datagram to b, which the
// implementation sent on client's side at at; c is what the Monitor
// knows of client, nil if nothing.
func (w *Monitor) judge(client netip.AddrPort, c *conn, b []byte, at time.Time) {
	w.datagrams++
	when := moment{at, w}
	w.check(Size, len(b) <= rtype.MaxDatagramSize, func() string {
		return fmt.Sprintf("%s sent a %d-byte datagram at %v", w.who(client), len(b), when)
	})
	d := wiredump.Decode(wiredump.Handshake, b)
	connected := c != nil && len(c.ids) > 0
	switch {
	case d.Err == nil || errors.Is(d.Err, rtype.ErrZeroConnectionID):
		w.handshake(client, &d, when)
		return
	case !connected:
		w.check(Handshake, false, func() string {
			return fmt.Sprintf("%s sent a %d-byte datagram at %v, no valid handshake datagram: %v (% x)", w.who(client), len(b), when, d.Err, head(b))
		})
		return
	}
	// Decoded into the Monitor's own, so that its messages take no new
	// memory.
	wiredump.DecodeTo(&w.dec, wiredump.Packet, b)
	if !w.dec.HasHeader {
		w.check(Framing, false, func() string {
			return fmt.Sprintf("%s sent a %d-byte datagram at %v, shorter than a packet's header (% x)", w.who(client), len(b), when, head(b))
		})
		return
	}
	w.packets++
	w.packet(c, &w.dec, when)
}

// handshake judges a handshake datagram, valid but for a Welcome's id of
// 0: that id (§4.3).
func (w *Monitor) handshake(client netip.AddrPort, d *wiredump.Decoded, at moment) {
	w.check(Handshake, true, nil)
	if d.Err == nil && d.Handshake != rtype.HandshakeWelcome {
		return
	}
	w.check(WelcomeID, d.Err == nil, func() string {
		return fmt.Sprintf("the Welcome to %v at %v carries connectionId 0 (% x)", client, at, head(d.Data))
	})
}

// packet judges a packet with a whole header, sent to or by a client that
// has a connection: its id (§5.1), its number (§5.2), its framing (§5.3)
// and, when well framed, each of its messages (§6 to §8).
func (w *Monitor) packet(c *conn, d *wiredump.Decoded, at moment) {
	h := d.Header
	n := c.find(h.ConnectionID)
	w.check(ConnID, n != nil, func() string {
		return fmt.Sprintf("%s's packet %d, %d bytes at %v, carries connectionId %d", w.conn(c, c.ids[len(c.ids)-1].id), h.Sequence, len(d.Data), at, h.ConnectionID)
	})
	dropped := n == nil || d.Err != nil
	if n == nil {
		// Its number is spent on the address's connection, as a
		// receiver there would see it arrive.
		n = &c.ids[len(c.ids)-1]
		if h.Sequence != n.last+1 {
			return
		}
	}
	// Only a lossy path tells copies by their bytes.
	var h64 uint64
	if w.lossy {
		h64 = sum(d.Data)
	}
	w.number(c, n, h.Sequence, dropped, h64, at)
	framed := !errors.Is(d.Err, rtype.ErrTruncatedMessageHeader) && !errors.Is(d.Err, rtype.ErrMessageOverrun) && !errors.Is(d.Err, rtype.ErrShortPacket)
	w.check(Framing, framed, func() string {
		return fmt.Sprintf("%s's packet %d, %d bytes at %v, is no valid packet: %v (% x)", w.conn(c, n.id), h.Sequence, len(d.Data), at, d.Err, head(d.Data))
	})
	for i := range d.Messages {
		w.message(c, n, h.Sequence, &d.Messages[i], at)
	}
}

// number judges the sequence of the next packet of a connection: 1 first,
// then one more each time (§5.2). A Welcome of the same id again lets it
// start over at 1. A datagram a receiver drops spends its number; one that
// repeats or goes back is left to the rule that drops it.
func (w *Monitor) number(c *conn, n *numbering, seq uint32, dropped bool, h uint64, at moment) {
	want := n.last + 1
	if n.again && seq == 1 {
		want = 1
	}
	n.again = false
	switch {
	case seq == want, w.lossy && seq > want:
		n.last, n.spent, n.sum = seq, dropped, h
	case dropped && seq <= n.last, w.lossy && seq == n.last && h == n.sum:
		return
	case seq == n.last && n.spent:
		n.spent, n.sum = false, h
	default:
		w.check(Numbering, false, func() string {
			what := "had"
			switch {
			case n.last == 0:
				return fmt.Sprintf("%s's first packet, at %v, had sequence %d, want 1", w.conn(c, n.id), at, seq)
			case seq == n.last:
				what = "repeated"
			case seq < n.last:
				what = "went back to"
			}
			return fmt.Sprintf("%s's packet after %d, at %v, %s sequence %d, want %d", w.conn(c, n.id), n.last, at, what, seq, want)
		})
		n.last, n.spent, n.sum = max(n.last, seq), dropped, h
		return
	}
	w.check(Numbering, true, nil)
}

// check counts one judgement of rule r; a breach is described by why, the
// first one of the exchange kept, and the first one of the datagram
// returned by Saw.
func (w *Monitor) check(r Rule, ok bool, why func() string) {
	s := &w.seen[r]
	s.Judged++
	if ok {
		return
	}
	s.Broken++
	if s.First != "" && (w.breach < NumRules || !w.words) {
		return
	}
	text := why()
	if s.First == "" {
		s.First = text
	}
	if w.breach == NumRules {
		w.breach, w.breachWhy = r, text
	}
}

// who names the implementation's side of a client address.
func (w *Monitor) who(client netip.AddrPort) string {
	if w.role == Server {
		return fmt.Sprintf("the server, to %v,", client)
	}
	return fmt.Sprintf("the client at %v", client)
}

// conn names a connection.
func (w *Monitor) conn(c *conn, id uint32) string {
	return fmt.Sprintf("connection %d (%v)", id, c.addr)
}

// moment is when a datagram was seen, written as a time into the run of
// w only when a detail needs it.
type moment struct {
	tm time.Time
	w  *Monitor
}

func (m moment) String() string {
	return fmt.Sprintf("%.2fs into the run", m.tm.Sub(m.w.start).Seconds())
}

// Record returns what the Monitor saw of rule r.
func (w *Monitor) Record(r Rule) Record {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r >= NumRules {
		return Record{}
	}
	return w.seen[r]
}

// Totals describes what the Monitor saw in all: "3,412 datagrams (2,980
// packets) on 31 connections over 17.9s".
func (w *Monitor) Totals() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return fmt.Sprintf("%s datagrams (%s packets) on %s connections over %.1fs",
		Thousands(w.datagrams), Thousands(w.packets), Thousands(w.connections), time.Since(w.start).Seconds())
}

// Thousands writes n with a comma every three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// sum hashes a datagram (FNV-1a), to tell a copy.
func sum(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// head is at most the first 20 bytes of b, for a detail.
func head(b []byte) []byte { return b[:min(len(b), 20)] }
