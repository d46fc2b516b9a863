package session

import "time"

// ack applies the client's ack and ackBits (§5.1) to c: its packets and
// round trip, then the entity messages of the packets they resolve
// (§13.4), each handed to its entity's replica.
func (s *Server) ack(c *conn, ack, bits uint32, now time.Time) {
	rtt, sampled, ok := c.ack(ack, bits, now)
	if !ok {
		return
	}
	if sampled {
		s.stats.RTT.observeRTT(rtt)
		if s.trace.on() {
			s.trace.rtt(c.addr, rtt, c.cs.SRTT)
		}
	}
	c.sent.resolve(ack, bits, func(ref entityRef, seq uint32, o ackOutcome) {
		s.resolved(c, ref, seq, o)
	})
}

// resolved hands c's replica of ref's entity what the acks made of the
// copy packet seq carried.
func (s *Server) resolved(c *conn, ref entityRef, seq uint32, o ackOutcome) {
	if j, ok := s.world.find(ref.id); ok {
		s.world.update(j, c.slot, func(r *replica) { r.resolved(ref.kind, o, seq) })
	}
}
