package conformance

import (
	"encoding/binary"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype"
)

// player is the suite's scripted client in server mode: a fresh socket,
// its handshake, its own numbering of packets and Inputs, and what the
// server told it. It does only what the case asks: no Hello or Input is
// sent behind the case's back.
type player struct {
	t      *check
	ep     *endpoint
	server netip.AddrPort
	id     uint32

	seq      uint32 // highest sequence sent
	inputSeq uint32
	frame    uint32
	win      rtype.SeqWindow // the server's packets, for ack and ackBits
	left     bool

	world world
	// observe, when set, sees every message of every valid packet.
	observe func(m msg)
	// invalid counts the server's datagrams after Welcome that are no
	// valid connected packet of this connection, with the first reason.
	invalid    int
	invalidWhy string
	// handshakes lists the first maxHandshakes handshake datagrams after
	// the Welcome.
	handshakes []rtype.HandshakeType
}

const maxHandshakes = 64

// msg is one message of a server packet, as the player received it.
type msg struct {
	hdr  rtype.PacketHeader
	raw  rtype.RawMessage
	size int // of the whole datagram
	at   time.Time
}

// Timing of the scripted client: Hellos faster than §4.2's one a second,
// so that a case does not wait on a lost one, and how long an answer may
// take on loopback.
const (
	helloEvery = 200 * time.Millisecond
	welcomeBy  = 2 * time.Second
	replyWait  = 500 * time.Millisecond
	frameTime  = time.Second / 60
)

// newPlayer opens a fresh socket towards the server under test.
func (t *check) newPlayer() *player {
	var bind netip.AddrPort
	switch {
	case t.server.Addr().IsLoopback():
		// The address the server will see, as the report shows it.
		bind = netip.AddrPortFrom(t.server.Addr(), 0)
	case t.server.Addr().Is4():
		bind = netip.AddrPortFrom(netip.IPv4Unspecified(), 0)
	default:
		bind = netip.AddrPortFrom(netip.IPv6Unspecified(), 0)
	}
	p := &player{t: t, ep: t.socket(bind), server: t.server, world: newWorld()}
	return p
}

// handshake sends Hello until a valid Welcome comes, and skips the case
// when none does: the server may be full.
func (t *check) handshake() *player {
	p := t.newPlayer()
	if !p.hello(welcomeBy) {
		t.Skipf("no Welcome within %v of the first Hello: the server may be full", welcomeBy)
	}
	return p
}

// hello sends Hello every helloEvery until a valid Welcome (§4.3) comes
// from the server within d.
func (p *player) hello(d time.Duration) bool {
	_, ok := p.helloUntil(d, isWelcome)
	return ok
}

// helloUntil sends Hello every helloEvery for up to d and returns the
// first datagram from the server that take accepts. A valid Welcome among
// them connects the player, which then leaves at the case's end.
func (p *player) helloUntil(d time.Duration, take func(datagram) bool) (datagram, bool) {
	end := p.t.within(d)
	for time.Now().Before(end) {
		p.ep.sendTo(p.server, rtype.AppendHello(nil))
		for next := earliest(p.t.within(helloEvery), end); ; {
			dg, ok := p.ep.recv(next)
			if !ok {
				break
			}
			if dg.from != p.server || !take(dg) {
				continue
			}
			if typ, id, err := rtype.ParseHandshake(dg.b); err == nil && typ == rtype.HandshakeWelcome {
				p.welcomed(id)
			}
			return dg, true
		}
	}
	return datagram{}, false
}

// welcomed takes connection id from a Welcome, so the case ends with a
// Disconnect on a server that opened a connection on Hello.
func (p *player) welcomed(id uint32) {
	if p.id != 0 {
		return
	}
	p.id = id
	p.ep.connected.Store(true)
	p.t.cleanup(p.leave)
}

// isWelcome accepts a valid Welcome (§4.3).
func isWelcome(dg datagram) bool {
	typ, _, err := rtype.ParseHandshake(dg.b)
	return err == nil && typ == rtype.HandshakeWelcome
}

// join is handshake, then a first packet carrying a Ping whose Pong shows
// the server took the connection; the case is skipped if it does not.
func (t *check) join() *player {
	p := t.handshake()
	ts := p.ping()
	if _, ok := p.pong(ts, time.Second); !ok {
		t.Skipf("welcomed as connection %d, but no Pong within 1s of the first packet's Ping: the server may be full", p.id)
	}
	return p
}

// header returns the header of a packet numbered seq, acking what the
// player received (§5.1).
func (p *player) header(seq uint32) rtype.PacketHeader {
	ack, bits := p.win.Ack()
	return rtype.PacketHeader{ConnectionID: p.id, Sequence: seq, Ack: ack, AckBits: bits}
}

// packet encodes a packet numbered seq with msgs. Messages are encoded as
// given, so a RawMessage can carry any size or value.
func (p *player) packet(seq uint32, msgs ...rtype.Message) []byte {
	b, err := p.header(seq).AppendBinary(make([]byte, 0, rtype.MaxDatagramSize))
	if err != nil {
		// Only connection id 0 makes the encoder refuse; write it raw.
		b = binary.BigEndian.AppendUint32(b[:0], p.id)
		b = binary.BigEndian.AppendUint32(b, seq)
		ack, bits := p.win.Ack()
		b = binary.BigEndian.AppendUint32(b, ack)
		b = binary.BigEndian.AppendUint32(b, bits)
	}
	for _, m := range msgs {
		b = appendMessage(b, m)
	}
	return b
}

// appendMessage writes a message header and payload without the
// encoder's refusals, so that cases can send what a receiver must drop.
func appendMessage(b []byte, m rtype.Message) []byte {
	if raw, ok := m.(rtype.RawMessage); ok {
		b = binary.BigEndian.AppendUint16(b, uint16(raw.Type))
		b = binary.BigEndian.AppendUint16(b, uint16(len(raw.Payload)))
		return append(b, raw.Payload...)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(m.MessageType()))
	b = binary.BigEndian.AppendUint16(b, uint16(m.Len()))
	out, err := m.AppendBinary(b)
	if err != nil {
		return b[:len(b)-4]
	}
	return out
}

// send sends a packet numbered seq; the player's counter follows the
// highest sent.
func (p *player) send(seq uint32, msgs ...rtype.Message) {
	p.sendRaw(p.packet(seq, msgs...))
	p.seq = max(p.seq, seq)
}

// next sends the next packet of the player's numbering (§5.2).
func (p *player) next(msgs ...rtype.Message) uint32 {
	seq := p.seq + 1
	p.send(seq, msgs...)
	return seq
}

// sendRaw sends b as it is.
func (p *player) sendRaw(b []byte) { p.ep.sendTo(p.server, b) }

// leave sends Disconnect reason 1 (§7.3) once, if the player is connected.
func (p *player) leave() {
	if p.id == 0 || p.left {
		return
	}
	p.left = true
	p.ep.sendTo(p.server, p.packet(p.seq+1, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}))
	p.seq++
}

// input sends one Input of the next inputSequence (§7.1) in the next packet.
func (p *player) input(a rtype.Actions) {
	p.inputSeq++
	p.frame++
	p.next(rtype.Input{InputSequence: p.inputSeq, ClientTick: p.frame, Actions: a})
}

// pingCount makes each Ping's timestamp unique across a run.
var pingCount atomic.Uint32

// ping sends the next packet with a Ping and returns its timestamp.
func (p *player) ping() uint32 {
	ts := p.pingStamp()
	p.next(rtype.Ping{Timestamp: ts})
	return ts
}

func (p *player) pingStamp() uint32 {
	return 0x5A000000 | pingCount.Add(1)&0xFFFFFF
}
