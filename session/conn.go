package session

import "time"

// conn is one player's connection, bound to the address its Hello came
// from (§4.2), in the player slot of its index.
type conn struct {
	state placeState
	slot  int
	peer  // the budget (§12) counts from its ackTop

	lastSent uint32 // tick of the last packet sent by Tick
	// probeDue marks a valid packet left unanswered: over the send budget,
	// the connection gets one empty packet for it.
	probeDue  bool
	lastInput uint32
	gotInput  bool
	cs        ConnStats

	// sent comes last: kilobytes, of which a packet touches a few lines.
	sent history
}

func (c *conn) stats(w *world) ConnStats {
	cs := c.cs
	cs.Conn, cs.Addr, cs.Slot, cs.Open = c.id, c.addr, uint8(c.slot), c.state == placeTaken
	cs.Pending = c.pending(w)
	cs.Sent, cs.Acked, cs.Lost = c.sent.nSent, c.sent.nAcked, c.sent.nLost
	return cs
}

// ack applies the client's ack and ackBits (§5.1) to c: its packets and
// their loss (§5.2), then the entity messages of the packets they resolve
// (§13.4), each handed to its replica in to, then the round trip of the
// ack's own packet when this ack is the first to show it. An ack of
// nothing yet, or of a packet never sent, says nothing: receive raised
// ackTop to any other.
func (c *conn) ack(ack, bits uint32, now time.Time, e *endpoint, to replicas) {
	if ack == 0 || ack > c.ackTop {
		return
	}
	at, sampled := c.sent.ack(ack, bits, c.seq, to)
	if sampled {
		e.sampleRTT(c.addr, &c.cs.SRTT, now.Sub(at))
	}
}

// pending counts the entities c's client is owed or has not acked (§13.4).
func (c *conn) pending(w *world) int {
	n := 0
	for i := range w.ents {
		if w.rep(i, c.slot).unsettled() {
			n++
		}
	}
	return n
}
