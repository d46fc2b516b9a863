package wiredump

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// Decoded is one datagram after the parser of its kind ran.
type Decoded struct {
	// Kind is the parser the datagram went through (§3).
	Kind Kind
	// Data is the whole datagram.
	Data []byte
	// Err is why a receiver drops the whole datagram (§2.2, §4, §5.3,
	// §5.4), nil if it keeps it: the library's error as its parser
	// returned it.
	Err error
	// Break is, for a framing error (§5.3), the offset of the message
	// header where the framing breaks, which the outputs add to Err; 0
	// otherwise.
	Break int

	// Handshake is the type of a valid handshake datagram (§4), and
	// ConnectionID the connection id of a valid Welcome (§4.3).
	Handshake    rtype.HandshakeType
	ConnectionID uint32

	// Welcomed is, for a connected packet whose check of §5.4 ran
	// ([Sides.Decode], [Sides.Check]), the connection id it was held to:
	// its own when a Welcome to its client gave it and the client took no
	// other, else the connection's, or the last Welcome's while the client
	// took none; 0 when no Welcome was seen.
	Welcomed uint32

	// Header is the header of a connected packet of at least 16 bytes
	// (§5.1), HasHeader says there is one. It is set even when the packet
	// is dropped: it tells which connection and sequence the packet claimed.
	Header    rtype.PacketHeader
	HasHeader bool
	// Messages are the messages of a connected packet whose framing is
	// valid (§5.3), in order; none when Err is set (nil from [Decode]).
	Messages []Message
}

// Decode runs the parser of kind k on the datagram b, which the result
// keeps without copying.
func Decode(k Kind, b []byte) Decoded {
	if k == Handshake {
		return decodeHandshake(b)
	}
	return decodePacket(b)
}

// DecodeTo is [Decode] into d, its messages in the memory of d.Messages
// (then empty rather than nil when there are none): a reader that keeps
// nothing of a datagram once judged decodes each without allocating.
func DecodeTo(d *Decoded, k Kind, b []byte) {
	if k == Handshake {
		msgs := d.Messages[:0]
		*d = decodeHandshake(b)
		d.Messages = msgs
		return
	}
	decodePacketTo(d, b, d.Messages)
}

// Object is the JSON form of d as datagram number n, seen at at (nil
// outside a capture): n, then time, src and dst when at is given, then
// kind, valid, error when dropped, the fields of the kind (§4 or §5.1),
// messages when kept, and size and data when dropped.
func (d *Decoded) Object(n int, at *Origin) Object {
	o := Object{}.Add("n", n)
	if at != nil {
		o = o.Add("time", at.Time.UTC().Format(time.RFC3339Nano)).
			Add("src", at.Src.String()).
			Add("dst", at.Dst.String())
	}
	o = o.Add("kind", d.Kind.String()).Add("valid", d.Err == nil)
	if d.Err != nil {
		o = o.Add("error", d.errorText())
	}
	switch {
	case d.Kind == Handshake && d.Err == nil:
		o = handshakeFields(o, d)
	case d.Kind == Packet && d.HasHeader:
		o = headerFields(o, d.Header)
	}
	if d.Kind == Packet && d.Err == nil {
		list := make([]Object, len(d.Messages))
		for i := range d.Messages {
			list[i] = d.Messages[i].Object()
		}
		o = o.Add("messages", list)
	}
	if d.Err != nil {
		o = o.Add("size", len(d.Data)).Add("data", hexBytes(d.Data))
	}
	return o
}

// errorText is Err with what the outputs add to it: the offset where the
// framing breaks, or the two connection ids that differ.
func (d *Decoded) errorText() string {
	switch {
	case d.Break > 0:
		return fmt.Sprintf("%s at byte %d", d.Err, d.Break)
	case d.Err == ErrConnectionIDDiffers && d.Welcomed != 0:
		return fmt.Sprintf("connection id %d differs from the Welcome's %d (§5.4)", d.Header.ConnectionID, d.Welcomed)
	}
	return d.Err.Error()
}
