package main

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// kind is which parser a datagram goes through (§3).
type kind uint8

const (
	kindHandshake kind = iota // §4
	kindPacket                // §5
)

func (k kind) String() string {
	if k == kindHandshake {
		return "handshake"
	}
	return "packet"
}

// decoded is one datagram after its parser ran.
type decoded struct {
	kind kind
	size int
	data []byte
	// err is why a receiver drops the whole datagram, nil if it keeps it;
	// errBase is the library's sentinel behind it, for counting drops.
	err, errBase error

	// A valid handshake datagram (§4).
	handshake    rtype.HandshakeType
	connectionID uint32

	// A connected packet (§5): the header when at least 16 bytes came, and
	// the messages when the framing is valid.
	header    rtype.PacketHeader
	hasHeader bool
	messages  []decodedMessage
}

// decode runs the parser of kind k.
func decode(k kind, b []byte) decoded {
	if k == kindHandshake {
		return decodeHandshake(b)
	}
	return decodePacket(b)
}

// origin is where a datagram of a capture was seen.
type origin struct {
	time     time.Time
	src, dst netip.AddrPort
}

// datagramObject is the output form of a datagram: n, then time, src and dst
// for captures, then kind, valid and the fields of the kind.
func datagramObject(n int, at *origin, d decoded) object {
	o := object{}.add("n", n)
	if at != nil {
		o = o.add("time", at.time.UTC().Format(time.RFC3339Nano)).
			add("src", at.src.String()).
			add("dst", at.dst.String())
	}
	o = o.add("kind", d.kind.String()).add("valid", d.err == nil)
	if d.err != nil {
		o = o.add("error", d.err.Error())
	}
	switch {
	case d.kind == kindHandshake && d.err == nil:
		o = handshakeFields(o, d)
	case d.kind == kindPacket && d.hasHeader:
		o = headerFields(o, d.header)
	}
	if d.kind == kindPacket && d.err == nil {
		list := make([]object, len(d.messages))
		for i, m := range d.messages {
			list[i] = messageObject(m)
		}
		o = o.add("messages", list)
	}
	if d.err != nil {
		o = o.add("size", d.size).add("data", hexBytes(d.data))
	}
	return o
}
