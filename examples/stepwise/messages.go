package main

import "github.com/rtypeproto/rtype"

// message handles one message of an accepted packet (stage 3 on), putting
// its answer, if any, in o. It reports false when the message closed the
// connection. A message whose payload has the wrong size, or an unknown
// type, is skipped and the packet goes on (§6, §12).
func (s *server) message(c *conn, m rtype.RawMessage, o *out) bool {
	switch m.Type {
	case rtype.TypePing: // §7.2: exactly 4 bytes; the Pong carries them back (§8.4)
		var ping rtype.Ping
		if ping.UnmarshalBinary(m.Payload) == nil {
			put(o, rtype.Pong(ping))
		}
	case rtype.TypeDisconnect: // §7.3: 1 byte, any reason; closes at once
		var d rtype.Disconnect
		if d.UnmarshalBinary(m.Payload) == nil {
			s.close(c)
			return false
		}
	case rtype.TypeInput:
		if s.cfg.stage >= stageShip {
			s.input(c, m.Payload)
		}
	case rtype.TypeQueryEntity:
		if s.cfg.stage >= stageShip {
			s.query(m.Payload, o)
		}
	}
	return true
}
