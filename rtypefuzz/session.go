package rtypefuzz

import (
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"slices"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
)

// inbox bounds the answers queued on a socket: past it they are dropped,
// so memory stays bounded whatever the implementation sends (§12).
const inbox = 256

// maxSent bounds the datagrams a session records for its reproducer;
// a session that sent as many is replaced by a new one.
const maxSent = 2000

// errNoWelcome: a session's Hellos got no Welcome.
var errNoWelcome = errors.New("rtypefuzz: no Welcome")

// errRejected: the implementation answered Rejected (§4.4).
var errRejected = errors.New("rtypefuzz: Rejected")

// sess is one session of the fuzzer with the implementation: its own
// socket, what it knows of the peer (Context), and the datagrams it sent.
type sess struct {
	conn  conformance.Conn
	local netip.AddrPort
	peer  netip.AddrPort
	in    chan Datagram
	start time.Time
	ctx   Context
	win   rtype.SeqWindow
	// welcomed is set once a valid Welcome came, or went to a client
	// (§4.3): from then on the session's datagrams are connected
	// packets (§3).
	welcomed bool
	// sent are the datagrams sent since the session opened, for its
	// reproducer; answers counts what came back.
	sent    []Datagram
	answers int
	// top and newest are the highest sequence sent with the session's
	// id, mutations included, by the plain comparison and by the
	// wrapping one (§5.2 allows either): the peer drops anything not
	// above the one it uses as too old or repeated, the Disconnect that
	// frees the slot too.
	top, newest uint32
	// tr records the socket's datagrams both ways, for a capture.
	tr *trace
	// monitor judges them (breach.go).
	monitor *watched
}

// dial opens a socket for a session with peer, bound to bind.
func dial(nw conformance.Network, bind, peer netip.AddrPort, t Target) (*sess, error) {
	conn, err := nw.Listen(bind)
	if err != nil {
		return nil, err
	}
	local, err := netip.ParseAddrPort(conn.LocalAddr().String())
	if err != nil {
		conn.Close()
		return nil, err
	}
	s := &sess{conn: conn, local: local, peer: peer, in: make(chan Datagram, inbox), start: time.Now(), tr: newTrace(),
		monitor: newWatched(t, local, peer)}
	s.ctx.Target = t
	go s.read()
	return s, nil
}

// read queues the socket's datagrams until it is closed.
func (s *sess) read() {
	buf := make([]byte, 1<<16)
	for {
		n, from, err := s.conn.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			close(s.in)
			return
		}
		if err != nil {
			continue
		}
		d := Datagram{At: time.Since(s.start), From: unmap(from), To: s.local, Bytes: append([]byte(nil), buf[:n]...)}
		s.tr.add(false, d.From, d.To, d.Bytes)
		s.monitor.saw(d.From, d.To, d.Bytes)
		select {
		case s.in <- d:
		default:
		}
	}
}

// send sends b to the peer and returns it as sent; it is recorded for
// the reproducer once the session is open, from the start for a client,
// whose reproducer starts at its Hello.
func (s *sess) send(b []byte) Datagram {
	_, _ = s.conn.WriteToUDPAddrPort(b, s.peer)
	s.monitor.saw(s.local, s.peer, b)
	s.tr.add(true, s.local, s.peer, b)
	d := Datagram{At: time.Since(s.start), Out: true, From: s.local, To: s.peer, Bytes: b}
	if s.welcomed && len(b) >= rtype.PacketHeaderSize && len(b) <= rtype.MaxDatagramSize &&
		binary.BigEndian.Uint32(b) == s.ctx.Conn {
		seq := binary.BigEndian.Uint32(b[4:])
		s.top = max(s.top, seq)
		if rtype.SequenceNewer(seq, s.newest) {
			s.newest = seq
		}
	}
	if s.welcomed || s.ctx.Target == Client {
		s.sent = append(s.sent, d)
	}
	return d
}

// close ends the session's socket.
func (s *sess) close() { s.conn.Close() }

// open plays the client's side of the handshake (§4.2, §4.3): a Hello
// each second until a Welcome, for at most wait, then the first packet,
// which opens the connection (§12).
func (s *sess) open(wait time.Duration) error {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		s.send(rtype.AppendHello(nil))
		again := time.NewTimer(time.Second)
		select {
		case <-deadline.C:
			again.Stop()
			return errNoWelcome
		case d, ok := <-s.in:
			again.Stop()
			if !ok {
				return errNoWelcome
			}
			t, id, err := rtype.ParseHandshake(d.Bytes)
			switch {
			case err == nil && t == rtype.HandshakeWelcome:
				s.welcomed, s.ctx.Conn = true, id
				s.start = time.Now()
				s.keepalive()
				s.sent = s.sent[:0] // the opening is redone at each replay
				return nil
			case err == nil && t == rtype.HandshakeRejected:
				return errRejected
			}
		case <-again.C:
		}
	}
}

// keepalive sends the session's next valid packet: an Input with no
// action, acknowledging what arrived (§5.1, §7.1).
func (s *sess) keepalive() {
	s.send(s.packet(rtype.Input{InputSequence: s.ctx.Seq + 1}))
}

// packet returns the session's next valid packet, of msgs (§5.1): the
// header the mutator builds on, moved on to its sequence.
func (s *sess) packet(msgs ...rtype.Message) []byte {
	b := appendHeader(make([]byte, 0, rtype.MaxDatagramSize), nextHeader(&s.ctx))
	s.ctx.Seq++
	for _, m := range msgs {
		b, _ = rtype.AppendMessage(b, m)
	}
	return b
}

// absorb learns from an answer: the sequences to acknowledge (§5.1), the
// entities (§8) a mutation may name.
func (s *sess) absorb(d Datagram) {
	s.answers++
	p, err := rtype.ParsePacket(d.Bytes)
	if err != nil || !s.welcomed {
		return
	}
	h := p.Header()
	if h.ConnectionID != s.ctx.Conn {
		return
	}
	s.win.Receive(h.Sequence)
	s.ctx.Ack, s.ctx.AckBits = s.win.Ack()
	for m := range p.Messages() {
		s.learn(m)
	}
}

// learn keeps the entity id of a CreateEntity, a few dozen at most, for
// the mutations that name a known entity (§7.4). The serverTick is not
// kept: a server ignores the ticks of the messages sent to the wrong side
// that carry one (§6), and learning fewer values of the server keeps a
// seed's datagrams the same from run to run.
func (s *sess) learn(m rtype.RawMessage) {
	var v rtype.CreateEntity
	if m.Type == rtype.TypeCreateEntity && v.UnmarshalBinary(m.Payload) == nil && len(s.ctx.Entities) < 64 {
		s.ctx.Entities = append(s.ctx.Entities, v.NetworkID)
	}
}

// unmap makes an IPv4-mapped address plain IPv4.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// leave sends Disconnect (§7.3) on an open session, so that its slot frees
// at once, and closes the socket. A mutation may have moved the peer's
// highest sequence anywhere (§5.2): the Disconnect goes after each place
// it can be, the session's own sequence, the highest sent by the plain
// comparison and by the wrapping one, so that one of them is new to the
// peer; once one closed the connection, the others come from an address
// without one, which the peer drops (§12).
func (s *sess) leave() {
	if s.welcomed {
		for _, after := range partingAfter(s.ctx.Seq, s.top, s.newest) {
			h := nextHeader(&s.ctx)
			h.Sequence = after + 1
			b, _ := rtype.AppendMessage(appendHeader(nil, h), rtype.Disconnect{Reason: rtype.DisconnectClientQuit})
			_, _ = s.conn.WriteToUDPAddrPort(b, s.peer)
		}
	}
	s.close()
}

// partingAfter returns the sequences a parting Disconnect follows: seq,
// then top and newest when they differ, but for the last sequence there
// is, which nothing follows by the plain comparison.
func partingAfter(seq, top, newest uint32) []uint32 {
	out := []uint32{seq}
	for _, v := range []uint32{newest, top} {
		if v != ^uint32(0) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
