package session

import "github.com/rtypeproto/rtype"

// specClient follows only what the spec says of a client's entity table:
// a CreateEntity for a known id is ignored (§8.2), a DestroyEntity for an
// unknown id does nothing (§8.3), duplicates and too-old packets are
// dropped (§5.2). It keeps no memory of destroyed ids and reads no
// serverTick, so any ordering mistake of the server shows as a ghost.
type specClient struct {
	win  rtype.SeqWindow
	ents map[uint32]bool
	// conn, when not 0, is the id from Welcome: a packet with another
	// connectionId is not for this client (§4.3, §5.1).
	conn uint32
}

func newSpecClient() *specClient { return &specClient{ents: map[uint32]bool{}} }

// receive applies one server datagram; it ignores anything but a valid
// connected packet.
func (c *specClient) receive(b []byte) {
	p, err := rtype.ParsePacket(b)
	if err != nil || c.conn != 0 && p.Header().ConnectionID != c.conn {
		return
	}
	switch c.win.Receive(p.Header().Sequence) {
	case rtype.SeqDuplicate, rtype.SeqTooOld:
		return
	}
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypeCreateEntity:
			var ce rtype.CreateEntity
			if ce.UnmarshalBinary(m.Payload) == nil {
				c.ents[ce.NetworkID] = true
			}
		case rtype.TypeDestroyEntity:
			var d rtype.DestroyEntity
			if d.UnmarshalBinary(m.Payload) == nil {
				delete(c.ents, d.NetworkID)
			}
		}
	}
}
