package wiredump

import (
	"encoding/binary"
	"errors"

	"github.com/rtypeproto/rtype"
)

// decodePacket decodes a connected packet (§5): the library checks the
// 548-byte limit (§2.2), the 16-byte header (§5.4) and the message framing
// (§5.3); a framing error drops the whole packet, so its messages are not
// listed. Each message of a well-framed packet is then checked on its own
// (§6 to §8): a bad message is dropped alone.
func decodePacket(b []byte) Decoded {
	var d Decoded
	decodePacketTo(&d, b, nil)
	return d
}

// decodePacketTo is decodePacket into d, the messages appended to msgs[:0].
func decodePacketTo(d *Decoded, b []byte, msgs []Message) {
	*d = Decoded{Kind: Packet, Data: b}
	if len(b) >= rtype.PacketHeaderSize {
		d.Header = rtype.PacketHeader{
			ConnectionID: binary.BigEndian.Uint32(b[0:4]),
			Sequence:     binary.BigEndian.Uint32(b[4:8]),
			Ack:          binary.BigEndian.Uint32(b[8:12]),
			AckBits:      binary.BigEndian.Uint32(b[12:16]),
		}
		d.HasHeader = true
	}
	p, err := rtype.ParsePacket(b)
	if err != nil {
		d.Err = err
		if errors.Is(err, rtype.ErrTruncatedMessageHeader) || errors.Is(err, rtype.ErrMessageOverrun) {
			d.Break = framingBreak(b)
		}
		d.Messages = msgs[:0]
		return
	}
	d.Header = p.Header()
	d.Messages = msgs[:0]
	for m := range p.Messages() {
		d.Messages = append(d.Messages, decodeMessage(m))
	}
}

// framingBreak returns the offset of the message header where the framing of
// a packet breaks (§5.3): a header cut short, or one whose size runs past the
// end of the datagram. It is only called on packets the library rejected.
func framingBreak(b []byte) int {
	off := rtype.PacketHeaderSize
	for len(b)-off >= rtype.MessageHeaderSize {
		size := int(binary.BigEndian.Uint16(b[off+2 : off+4]))
		if off+rtype.MessageHeaderSize+size > len(b) {
			break
		}
		off += rtype.MessageHeaderSize + size
	}
	return off
}

// headerFields lists the packet header (§5.1).
func headerFields(o Object, h rtype.PacketHeader) Object {
	return o.Add("connectionId", h.ConnectionID).
		Add("sequence", h.Sequence).
		Add("ack", h.Ack).
		Add("ackBits", hex32(h.AckBits))
}
