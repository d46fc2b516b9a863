package planted

import "time"

// Message sizes, headers included, of what the client sends.
const (
	inputMsg = msgHeaderSize + inputSize
	pingMsg  = msgHeaderSize + pingSize
	queryMsg = msgHeaderSize + querySize
)

// hello sends a Hello (§4.2) and schedules the next.
func (c *client) hello(now time.Time) {
	c.nextHello = now.Add(helloInterval)
	c.send(appendHandshake(nil, typeHello))
}

// frame runs one frame: a Hello while connecting, else one packet.
func (c *client) frame(now time.Time) {
	switch {
	case !c.connected && now.Sub(c.start) >= giveUp:
		c.err = ErrGaveUp
	case !c.connected && !now.Before(c.nextHello):
		c.hello(now)
	case c.connected && now.Sub(c.heard) >= serverSilence:
		c.err = ErrTimedOut
	case c.connected:
		c.sendFrame(now)
	}
}

// sendFrame sends this frame's packet: an Input (§7.1), a Ping once a
// second (§7.2), and the queries due (§7.4), within 548 bytes.
func (c *client) sendFrame(now time.Time) {
	b := c.header()
	c.inputSeq++
	c.frames++
	b = appendMsgHeader(b, msgInput, inputSize)
	b = be.AppendUint32(b, c.inputSeq)
	b = be.AppendUint32(b, c.frames)
	b = append(b, actionsAt(c.frames))
	if !now.Before(c.nextPing) {
		c.nextPing = now.Add(pingInterval)
		b = appendMsgHeader(b, msgPing, pingSize)
		b = be.AppendUint32(b, uint32(now.Sub(c.start)/time.Millisecond)+1)
	}
	for len(c.pending) > 0 && len(b)+queryMsg <= maxDatagram {
		b = appendMsgHeader(b, msgQueryEntity, querySize)
		b = be.AppendUint32(b, c.pending[0])
		c.pending = c.pending[1:]
	}
	c.send(b)
}

// quit sends Disconnect, reason 1, client quit (§7.3).
func (c *client) quit() {
	if c.connected {
		c.send(append(appendMsgHeader(c.header(), msgDisconnect, leaveSize), 1))
	}
}

// header begins the next packet (§5.1, §5.2).
func (c *client) header() []byte {
	c.seq++
	ack, bits := c.win.acks()
	return appendHeader(make([]byte, 0, maxDatagram), c.id, c.seq, ack, bits)
}

// actionsAt returns the controls held at frame f: a square flown round,
// Shoot held for half a second and released (§7.1).
func actionsAt(f uint32) byte {
	moves := [4]byte{actRight, actDown, actLeft, actUp}
	a := moves[f/60%4]
	if f%60 < 30 {
		a |= actShoot
	}
	return a
}

// send writes b to the server; a failed write is a lost datagram.
func (c *client) send(b []byte) {
	_, _ = c.conn.WriteToUDPAddrPort(b, c.server)
}
