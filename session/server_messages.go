package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// handle applies one message of c's packet (§6, §7); false means it closed c.
func (s *Server) handle(c *conn, m rtype.RawMessage, now time.Time) bool {
	switch m.Type {
	case rtype.TypeInput:
		var in rtype.Input
		err := in.UnmarshalBinary(m.Payload)
		switch {
		case err != nil:
			s.drop(dropOf(err, DropPayloadSize))
		case c.gotInput && !rtype.SequenceNewer(in.InputSequence, c.lastInput):
			s.drop(DropStaleInput)
		default:
			c.gotInput, c.lastInput = true, in.InputSequence
			s.events.pushDroppable(ServerEvent{Kind: EventInput, Conn: c.id, Slot: uint8(c.slot), Input: in, At: now})
		}
	case rtype.TypePing:
		var ping rtype.Ping
		if err := ping.UnmarshalBinary(m.Payload); err != nil {
			s.drop(dropOf(err, DropPayloadSize))
			return true
		}
		// §7.2: the Pong carries the Ping's timestamp, its only field.
		put(toConn{s, c, now}, &s.asm, rtype.Pong(ping))
	case rtype.TypeDisconnect:
		var d rtype.Disconnect
		if err := d.UnmarshalBinary(m.Payload); err != nil {
			s.drop(dropOf(err, DropPayloadSize))
			return true
		}
		// §7.3: close at once, not even answering this packet.
		s.closeConn(c, CloseDisconnect, d.Reason, now)
		return false
	case rtype.TypeQueryEntity:
		var q rtype.QueryEntity
		if err := q.UnmarshalBinary(m.Payload); err != nil {
			s.drop(dropOf(err, DropPayloadSize))
			return true
		}
		s.events.pushDroppable(ServerEvent{Kind: EventQueryEntity, Conn: c.id, Slot: uint8(c.slot), Entity: Entity{ID: q.NetworkID}, At: now})
		s.answerQuery(toConn{s, c, now}, q.NetworkID)
	default:
		s.drop(DropUnknownMessage)
	}
	return true
}
