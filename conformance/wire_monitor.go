package conformance

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// monitor watches the wire of a whole run: every datagram every socket of
// the suite sends to the implementation or receives from it, whichever
// case, probe or ladder it belongs to. The rules that hold of each
// datagram the implementation sends (sizes, ids, numbering, framing,
// message sizes and values) are judged here, once, with the decoder
// rtypedump uses, so that a fault that comes once a second or once in a
// hundred datagrams is seen however short each case is. The cases of
// those rules report what it found (check.overRun).
//
// Connections are told apart by the client's address and the id a
// Welcome gave it (§3, §4.3): in server mode the suite's sockets are the
// clients, in client mode the implementation is, on the harness's
// address. Every table is bounded, whatever the implementation sends.
type monitor struct {
	mu   sync.Mutex
	mode Mode
	// servers are the server's addresses: the target, or the scripted
	// servers of client mode.
	servers []netip.AddrPort
	start   time.Time

	datagrams, packets int // sent by the implementation
	connections        int // welcomed
	conns              map[netip.AddrPort]*wireConn
	seen               [numWireRules]ruleSeen
}

// maxWireConns bounds the client addresses the monitor follows; a run
// opens a few hundred.
const maxWireConns = 4096

// wireConn is what the monitor knows of one client address: the
// connections Welcomes gave it, the latest last, at most maxOffered.
type wireConn struct {
	ids []numbering
}

const maxOffered = 8

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
}

// ruleSeen is what the monitor saw of one rule: how many times it judged
// it, how many times it was broken, and the first breach.
type ruleSeen struct {
	judged, broken int
	first          string
}

func newMonitor() *monitor {
	return &monitor{start: time.Now(), conns: map[netip.AddrPort]*wireConn{}}
}

// watch judges the implementation of mode m on the datagrams to and from
// server, an address of the server: the target, or a scripted server.
func (w *monitor) watch(m Mode, server netip.AddrPort) {
	w.mu.Lock()
	w.mode, w.servers = m, append(w.servers, server)
	w.mu.Unlock()
}

// saw takes one datagram from src to dst at at, sent or received by a
// socket of the suite.
func (w *monitor) saw(src, dst netip.AddrPort, b []byte, at time.Time) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	toServer := slices.Contains(w.servers, dst)
	if !toServer && !slices.Contains(w.servers, src) {
		return // between the suite's own sockets, or another address
	}
	client := src
	if !toServer {
		client = dst
	}
	if toServer == (w.mode == ClientMode) {
		w.judge(client, b, at)
	}
	if !toServer {
		w.welcome(client, b)
	}
}

// welcome notes a valid Welcome from the server to client (§4.3): a
// connection of its id, or, for an id it had, maybe a new one.
func (w *monitor) welcome(client netip.AddrPort, b []byte) {
	typ, id, err := rtype.ParseHandshake(b)
	if err != nil || typ != rtype.HandshakeWelcome {
		return
	}
	c := w.conns[client]
	if c == nil {
		if len(w.conns) >= maxWireConns {
			return
		}
		c = &wireConn{}
		w.conns[client] = c
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

func (c *wireConn) find(id uint32) *numbering {
	for i := range c.ids {
		if c.ids[i].id == id {
			return &c.ids[i]
		}
	}
	return nil
}

// judge applies every rule of a single datagram to b, which the
// implementation sent on client's side at at.
func (w *monitor) judge(client netip.AddrPort, b []byte, at time.Time) {
	w.datagrams++
	w.check(ruleSize, len(b) <= rtype.MaxDatagramSize, func() string {
		return fmt.Sprintf("%s sent a %d-byte datagram at %v", w.who(client), len(b), w.at(at))
	})
	c := w.conns[client]
	d := wiredump.Decode(wiredump.Handshake, b)
	if d.Err == nil || errors.Is(d.Err, rtype.ErrZeroConnectionID) {
		w.handshake(client, &d, at)
		return
	}
	if c == nil || len(c.ids) == 0 {
		return // a §4 answer, judged by the handshake cases
	}
	d = wiredump.Decode(wiredump.Packet, b)
	if !d.HasHeader {
		w.check(ruleFraming, false, func() string {
			return fmt.Sprintf("%s sent a %d-byte datagram at %v, shorter than a packet's header (% x)", w.who(client), len(b), w.at(at), head(b))
		})
		return
	}
	w.packets++
	w.packet(client, c, &d, at)
}

// handshake judges a handshake datagram, valid but for a Welcome's id of
// 0: that id (§4.3).
func (w *monitor) handshake(client netip.AddrPort, d *wiredump.Decoded, at time.Time) {
	if d.Err == nil && d.Handshake != rtype.HandshakeWelcome {
		return
	}
	w.check(ruleWelcomeID, d.Err == nil, func() string {
		return fmt.Sprintf("the Welcome to %v at %v carries connectionId 0 (% x)", client, w.at(at), head(d.Data))
	})
}

// packet judges a packet with a whole header, sent to or by a client that
// has a connection: its id (§5.1), its number (§5.2), its framing (§5.3)
// and, when well framed, each of its messages (§6 to §8).
func (w *monitor) packet(client netip.AddrPort, c *wireConn, d *wiredump.Decoded, at time.Time) {
	h := d.Header
	n := c.find(h.ConnectionID)
	w.check(ruleConnID, n != nil, func() string {
		return fmt.Sprintf("%s's packet %d, %d bytes at %v, carries connectionId %d", w.conn(client, c.ids[len(c.ids)-1].id), h.Sequence, len(d.Data), w.at(at), h.ConnectionID)
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
	w.number(client, n, h.Sequence, dropped, at)
	framed := !errors.Is(d.Err, rtype.ErrTruncatedMessageHeader) && !errors.Is(d.Err, rtype.ErrMessageOverrun) && !errors.Is(d.Err, rtype.ErrShortPacket)
	w.check(ruleFraming, framed, func() string {
		return fmt.Sprintf("%s's packet %d, %d bytes at %v, is no valid packet: %v (% x)", w.conn(client, n.id), h.Sequence, len(d.Data), w.at(at), d.Err, head(d.Data))
	})
	for i := range d.Messages {
		w.message(client, n.id, h.Sequence, &d.Messages[i], at)
	}
}

// number judges the sequence of the next packet of a connection: 1 first,
// then one more each time (§5.2). A Welcome of the same id again lets it
// start over at 1. A datagram a receiver drops spends its number; one that
// repeats or goes back is left to the rule that drops it.
func (w *monitor) number(client netip.AddrPort, n *numbering, seq uint32, dropped bool, at time.Time) {
	want := n.last + 1
	if n.again && seq == 1 {
		want = 1
	}
	n.again = false
	switch {
	case seq == want:
		n.last, n.spent = seq, dropped
	case dropped && seq <= n.last:
		return
	case seq == n.last && n.spent:
		n.spent = false
	default:
		w.check(ruleNumbering, false, func() string {
			what := "had"
			switch {
			case n.last == 0:
				return fmt.Sprintf("%s's first packet, at %v, had sequence %d, want 1", w.conn(client, n.id), w.at(at), seq)
			case seq == n.last:
				what = "repeated"
			case seq < n.last:
				what = "went back to"
			}
			return fmt.Sprintf("%s's packet after %d, at %v, %s sequence %d, want %d", w.conn(client, n.id), n.last, w.at(at), what, seq, want)
		})
		n.last, n.spent = max(n.last, seq), dropped
		return
	}
	w.check(ruleNumbering, true, nil)
}

// check counts one judgement of rule r; a breach is described by why, the
// first one kept.
func (w *monitor) check(r wireRule, ok bool, why func() string) {
	s := &w.seen[r]
	s.judged++
	if ok {
		return
	}
	s.broken++
	if s.first == "" {
		s.first = why()
	}
}

// who names the implementation's side of a client address.
func (w *monitor) who(client netip.AddrPort) string {
	if w.mode == ServerMode {
		return fmt.Sprintf("the server, to %v,", client)
	}
	return fmt.Sprintf("the client at %v", client)
}

// conn names a connection.
func (w *monitor) conn(client netip.AddrPort, id uint32) string {
	return fmt.Sprintf("connection %d (%v)", id, client)
}

// at is when tm was in the run, for details.
func (w *monitor) at(tm time.Time) string {
	return fmt.Sprintf("%.2fs into the run", tm.Sub(w.start).Seconds())
}

// record returns what the monitor saw of rule r, and the run's figures.
func (w *monitor) record(r wireRule) (ruleSeen, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen[r], fmt.Sprintf("%s datagrams (%s packets) on %s connections over %.1fs",
		thousands(w.datagrams), thousands(w.packets), thousands(w.connections), time.Since(w.start).Seconds())
}

// brokenFor reports whether the rule case id of mode m reports was broken
// so far.
func (w *monitor) brokenFor(m Mode, id string) bool {
	r, ok := ruleFor(m, id)
	w.mu.Lock()
	defer w.mu.Unlock()
	return ok && w.seen[r].broken > 0
}

// thousands writes n with a comma every three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
