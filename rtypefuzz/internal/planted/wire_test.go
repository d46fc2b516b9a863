package planted

import "slices"

// Datagrams written by hand for the tests, byte by byte as the
// specification lays them out.

func u32(v uint32) []byte { return be.AppendUint32(nil, v) }

// msg is one message: its 4-byte header, then payload (§5.3).
func msg(typ uint16, payload []byte) []byte {
	return append(appendMsgHeader(nil, typ, len(payload)), payload...)
}

func ping(ts uint32) []byte    { return msg(msgPing, u32(ts)) }
func query(id uint32) []byte   { return msg(msgQueryEntity, u32(id)) }
func leaveMsg(r byte) []byte   { return msg(msgDisconnect, []byte{r}) }
func helloDatagram() []byte    { return appendHandshake(nil, typeHello) }
func welcome(id uint32) []byte { return be.AppendUint32(appendHandshake(nil, typeWelcome), id) }

func input(seq uint32, actions byte) []byte {
	return msg(msgInput, append(be.AppendUint32(u32(seq), seq), actions))
}

// packet is a connected packet of connection conn, sequence seq, no acks,
// carrying msgs (§5.1).
func packet(conn, seq uint32, msgs ...[]byte) []byte {
	b := appendHeader(nil, conn, seq, 0, 0)
	for _, m := range msgs {
		b = append(b, m...)
	}
	return b
}

// serverTrigger returns the datagram that sets bug off, in a session of
// connection conn whose next sequence is seq.
func serverTrigger(bug Bug, conn, seq uint32) []byte {
	switch bug {
	case TrustedLength:
		// A Ping whose 4 bytes of payload never come: its size is past
		// the datagram's end.
		return append(packet(conn, seq), 0x00, 0x03, 0x00, 0x04)
	case UnboundedCount:
		msgs := make([][]byte, 9)
		for i := range msgs {
			msgs[i] = ping(uint32(100 + i))
		}
		return packet(conn, seq, msgs...)
	case IDZero:
		return packet(conn, seq, query(0))
	case WrapAround:
		// The highest received is seq−1: this is 2³¹ + 1 past it.
		return packet(conn, seq+1<<31, ping(7))
	case Hang:
		return packet(conn, seq, ping(hangMarker))
	case DisconnectReason:
		return packet(conn, seq, []byte{0x00, 0x04, 0x00, 0x01, 0x80})
	}
	return nil
}

// state is one Snapshot state for the tests' server (§8.1).
func stateBytes(id uint32, kind byte) []byte {
	b := append(u32(id), kind)
	b = be.AppendUint16(b, pos16(150))
	b = be.AppendUint16(b, pos16(150))
	return be.AppendUint16(b, 0)
}

// snapshotMsg is a Snapshot of tick whose entityCount is count and whose
// states are those of ids (§8.1).
func snapshotMsg(tick uint32, count uint16, ids ...uint32) []byte {
	p := be.AppendUint16(u32(tick), count)
	for _, id := range ids {
		p = append(p, stateBytes(id, 0x3E)...)
	}
	return msg(msgSnapshot, p)
}

// createMsgBytes is a CreateEntity of id with archetype kind (§8.2).
func createMsgBytes(id uint32, kind uint16) []byte {
	p := append(u32(600), u32(id)...)
	p = be.AppendUint16(p, kind)
	p = be.AppendUint16(p, pos16(2000))
	p = be.AppendUint16(p, pos16(300))
	return msg(msgCreateEntity, be.AppendUint16(p, 0))
}

// clientTrigger returns the message that sets the client's bug off.
func clientTrigger(bug ClientBug) []byte {
	switch bug {
	case SnapshotCount:
		return snapshotMsg(9, 48, 5) // entityCount 48, one state
	case Archetype:
		return createMsgBytes(5, 0x1234) // no blueprint hashes to 0x1234
	}
	return nil
}

// payloads returns the payloads of the messages of type typ a server
// packet carries.
func payloads(b []byte, typ uint16) [][]byte {
	var msgs [maxMessages]message
	if len(b) < headerSize {
		return nil
	}
	n, ok := splitMessages(b[headerSize:], msgs[:], false)
	if !ok {
		return nil
	}
	var ps [][]byte
	for _, m := range msgs[:n] {
		if m.typ == typ {
			ps = append(ps, m.p)
		}
	}
	return ps
}

// pongs returns the Pong timestamps a server packet carries (§8.4).
func pongs(b []byte) []uint32 {
	var ts []uint32
	for _, p := range payloads(b, msgPong) {
		if len(p) == pingSize {
			ts = append(ts, be.Uint32(p))
		}
	}
	return ts
}

// ships returns the ids of the ships whose CreateEntity a server packet
// carries (§8.2, §10).
func ships(b []byte) []uint32 {
	var ids []uint32
	for _, p := range payloads(b, msgCreateEntity) {
		if len(p) == createSize && slices.Contains(shipArchetypes[:], be.Uint16(p[8:])) {
			ids = append(ids, be.Uint32(p[4:]))
		}
	}
	return ids
}

// hasCreate reports whether a server packet carries a CreateEntity of id.
func hasCreate(b []byte, id uint32) bool {
	for _, p := range payloads(b, msgCreateEntity) {
		if len(p) == createSize && be.Uint32(p[4:]) == id {
			return true
		}
	}
	return false
}
