package rtype

// Builder assembles one connected packet in a fixed 548-byte array of its
// own (§2.2, §5): a header, then messages while they fit. An add that fails
// leaves the packet as it was. The zero value holds no packet; call Reset
// first. A Builder must not be copied once in use, since Bytes refers to
// its array.
type Builder struct {
	buf   [MaxDatagramSize]byte
	n     int
	count int
}

// Reset starts a new packet with header h (§5.1), dropping what the Builder held.
// It refuses a connection id of 0 with [ErrZeroConnectionID] and then holds
// no packet.
func (b *Builder) Reset(h PacketHeader) error {
	b.n, b.count = 0, 0
	out, err := h.AppendBinary(b.buf[:0])
	if err != nil {
		return err
	}
	b.n = len(out)
	return nil
}

// Bytes returns the datagram built so far (§5): the header and every message
// added since Reset, or nil before Reset. It aliases the Builder's array.
func (b *Builder) Bytes() []byte {
	if b.n == 0 {
		return nil
	}
	return b.buf[:b.n:b.n]
}

// Len returns the size in bytes of the datagram built so far, never above
// 548 (§2.2).
func (b *Builder) Len() int { return b.n }

// Count returns the number of messages added since Reset (§5.3).
func (b *Builder) Count() int { return b.count }

// Available returns the largest payload that the next message can carry,
// after its 4-byte header (§5.3): 528 in an empty packet, down to 0 when only
// a header fits. It returns -1 before Reset and when fewer than 4 bytes are
// left, so that no payload size is ever at most Available then.
func (b *Builder) Available() int {
	if b.n == 0 {
		return -1
	}
	return max(MaxDatagramSize-b.n-MessageHeaderSize, -1)
}

// Add appends message m, with its message header (§5.3), to the packet b is
// building; a [RawMessage] sends a type this package does not know (§6). It
// refuses, leaving the packet as it was, any message before Reset and a
// message that does not fit in the room left with [ErrNoRoom], a payload
// over 528 bytes, which no packet can hold, with [ErrPayloadTooLarge], type
// 0 with [ErrMessageType] (as [AppendMessage] does), and whatever m's own
// encoder refuses with that encoder's error. It never allocates.
func Add[M Message](b *Builder, m M) error {
	switch n := m.Len(); {
	case b.n == 0:
		return ErrNoRoom
	case n > MaxMessagePayload:
		// Too large for any packet: the same answer AppendMessage gives.
		return ErrPayloadTooLarge
	case n > b.Available():
		return ErrNoRoom
	}
	out, err := AppendMessage(b.buf[:b.n], m)
	if err != nil {
		return err
	}
	if &out[0] != &b.buf[0] {
		// m's AppendBinary returned a slice of its own rather than
		// appending in place: bring the message into the packet.
		copy(b.buf[b.n:], out[b.n:])
	}
	b.n = len(out)
	b.count++
	return nil
}
