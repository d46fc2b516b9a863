package conformance

import (
	"encoding/binary"
	"fmt"

	"github.com/rtypeproto/rtype"
)

// Helpers of the §2–§6 and §12 server cases: datagrams built byte by byte,
// answers looked for with a probe rather than a fixed wait, and the raw
// view of what the server sends.

// handshakeBytes returns a 6-byte handshake header with the given fields
// (§4.1), for Hellos a server must drop.
func handshakeBytes(magic uint32, version, typ uint8) []byte {
	b := binary.BigEndian.AppendUint32(make([]byte, 0, 6), magic)
	return append(b, version, typ)
}

// headerBytes returns a 16-byte packet header (§5.1) with the given id and
// sequence and no acknowledgement.
func headerBytes(id, seq uint32) []byte {
	b := binary.BigEndian.AppendUint32(make([]byte, 0, rtype.MaxDatagramSize), id)
	b = binary.BigEndian.AppendUint32(b, seq)
	return append(b, make([]byte, 8)...)
}

// padTo appends to packet b one message of type typ whose payload brings
// the datagram to exactly n bytes (n ≥ len(b)+4).
func padTo(b []byte, typ rtype.MessageType, n int) []byte {
	payload := make([]byte, max(n-len(b)-4, 0))
	for i := range payload {
		payload[i] = byte(i)
	}
	return appendMessage(b, rtype.RawMessage{Type: typ, Payload: payload})
}

// noise returns n random-looking bytes, the same for a seed. The first is
// 0xA5: no magic, so no handshake datagram, and as a connectionId above
// any a sequential v1 server gives.
func noise(n int, seed byte) []byte {
	b := make([]byte, n)
	x := uint32(seed)*2654435761 + 12345
	for i := range b {
		x = x*1103515245 + 12345
		b[i] = byte(x >> 16)
	}
	if n > 0 {
		b[0] = 0xA5 // never 'R', the magic's first byte
	}
	return b
}

// answered sends each of bad from a fresh address, then a Hello from
// another fresh address as a probe, and reports the first datagram the
// server sent to the first address. A server that handles datagrams in
// order answers the bad ones, if at all, before it welcomes the probe;
// the probe comes from its own address so that a server that took a bad
// Hello for a good one, and then drops a repeated Hello from a connected
// address (§13.2), still shows its Welcome. The case is skipped when the
// probe gets no Welcome: the server may be full.
func (t *check) answered(bad ...[]byte) (string, bool) {
	p := t.newPlayer()
	for _, b := range bad {
		p.sendRaw(b)
	}
	probe := t.newPlayer()
	if !probe.hello(welcomeBy) {
		t.waitedOut("no Welcome within %v to a probe Hello sent after the datagrams: the server may be full", t.paced(welcomeBy))
	}
	welcomed := t.since()
	dg, ok := p.recv(t.within(lateAnswer))
	if !ok {
		return "", false
	}
	if isWelcome(dg) {
		_, id, _ := rtype.ParseHandshake(dg.b)
		p.welcomed(id) // leave again, not to hold a slot
	}
	return fmt.Sprintf("a %d-byte datagram % x at %v (the probe was welcomed at %v)", len(dg.b), head(dg.b), t.at(dg.at), welcomed), true
}

// looksHandshake reports whether b starts like a handshake datagram (§4.1),
// valid or not, of any size: a server's answer to a Hello, however broken.
func looksHandshake(b []byte) bool {
	return len(b) >= 6 && binary.BigEndian.Uint32(b) == rtype.Magic
}

// looksWelcome reports whether b is a handshake datagram of type Welcome,
// whatever its size and other fields.
func looksWelcome(b []byte) bool {
	return looksHandshake(b) && b[5] == byte(rtype.HandshakeWelcome)
}

// head returns at most the first 20 bytes of b, for details.
func head(b []byte) []byte {
	if len(b) > 20 {
		return b[:20]
	}
	return b
}

// firstAnswer sends Hellos from a fresh socket (helloUntil) and returns
// the first datagram the server sends back within welcomeBy, grown to the
// run's pace, whatever it is; the case is skipped when none comes.
func (t *check) firstAnswer() (*player, datagram) {
	p := t.newPlayer()
	wait := t.paced(welcomeBy)
	dg, ok := p.helloUntil(wait, func(datagram) bool { return true })
	if !ok {
		t.waitedOut("no answer within %v to a Hello sent every %v: the server may be full", wait, helloInterval(wait))
	}
	return p, dg
}

// acked reports whether h acknowledges packet seq (§5.1). The verdict reads
// the server's ack and ackBits: the case is not run when case 5.1/1 or
// 5.1/2, which judge them, found them wrong.
func (t *check) acked(seq uint32, h rtype.PacketHeader) bool {
	t.trustAck()
	t.restsOn("5.1/2", "the server's ackBits")
	return rtype.Acked(seq, h.Ack, h.AckBits)
}

// trustAck ends the case as not run when case 5.1/1, which judges the
// server's ack, found it wrong.
func (t *check) trustAck() { t.restsOn("5.1/1", "the server's ack") }

// ackDesc describes a header's acknowledgement for details.
func ackDesc(h rtype.PacketHeader) string {
	return fmt.Sprintf("ack %d ackBits %#08x (packet %d)", h.Ack, h.AckBits, h.Sequence)
}
