package wiredump

import "github.com/rtypeproto/rtype"

// Message is one message of a well-framed packet (§5.3) with the result of
// its own checks (§6 to §8).
type Message struct {
	// Raw is the message as framed: its type and payload.
	Raw rtype.RawMessage
	// Err is why a receiver drops this message alone, nil if it keeps it.
	Err error
	// fields are the decoded payload fields, empty when Err is set.
	fields Object
}

// Name returns the catalog name of the message's type (§6), or "unknown".
func (m *Message) Name() string {
	if !m.Raw.Type.Known() {
		return "unknown"
	}
	return m.Raw.Type.String()
}

// Ignored reports whether a receiver skips the message, its type being
// outside the catalog: §6 has it ignore the message and keep processing the
// packet. Type 0, which is never sent, is one of them: the rule that
// refuses it binds senders, and a receiver knows no type 0.
func (m *Message) Ignored() bool { return !m.Raw.Type.Known() }

// decodeMessage checks and decodes one message with the library's decoder
// for its type. A type the catalog does not list, 0 included, is no error:
// a receiver ignores it (§6). states is reused between Snapshots.
func decodeMessage(m rtype.RawMessage, states *[]rtype.EntityState) Message {
	d := Message{Raw: m}
	p := m.Payload
	switch m.Type {
	case rtype.TypeInput:
		var v rtype.Input
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("inputSequence", v.InputSequence).
				Add("clientTick", v.ClientTick).
				Add("actions", actionNames(v.Actions))
		}
	case rtype.TypePing:
		var v rtype.Ping
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("timestamp", v.Timestamp)
		}
	case rtype.TypeDisconnect:
		var v rtype.Disconnect
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("reason", uint8(v.Reason))
			if v.Reason >= rtype.DisconnectClientQuit && v.Reason <= rtype.DisconnectServerShutdown {
				d.fields = d.fields.Add("reasonName", v.Reason.String())
			}
		}
	case rtype.TypeQueryEntity:
		var v rtype.QueryEntity
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("networkId", v.NetworkID)
		}
	case rtype.TypeSnapshot:
		v := rtype.Snapshot{States: (*states)[:0]}
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			*states = v.States
			d.fields = snapshotFields(v)
		}
	case rtype.TypeCreateEntity:
		var v rtype.CreateEntity
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("serverTick", v.ServerTick).
				Add("networkId", v.NetworkID).
				Add("entityType", hex16(v.EntityType))
			if name, ok := v.EntityType.Name(); ok {
				d.fields = d.fields.Add("archetype", name)
			}
			d.fields = d.fields.Add("positionX", v.X.Pixels()).
				Add("positionY", v.Y.Pixels()).
				Add("rotation", v.Rotation.Radians())
		}
	case rtype.TypeDestroyEntity:
		var v rtype.DestroyEntity
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("serverTick", v.ServerTick).
				Add("networkId", v.NetworkID).
				Add("reason", uint8(v.Reason)).
				Add("reasonName", v.Reason.String())
		}
	case rtype.TypePong:
		var v rtype.Pong
		if d.Err = v.UnmarshalBinary(p); d.Err == nil {
			d.fields = Object{}.Add("timestamp", v.Timestamp)
		}
	}
	return d
}

// snapshotFields lists a Snapshot (§8.1). entityType is only the low byte of
// the archetype id, so no blueprint name is guessed from it.
func snapshotFields(v rtype.Snapshot) Object {
	// Literals, not Add: a Snapshot holds up to 47 states, and growing
	// each one's fields by appends was most of a capture's decoding.
	list := make([]Object, len(v.States))
	for i, s := range v.States {
		list[i] = Object{
			{"networkId", s.NetworkID},
			{"entityType", hex8(s.EntityType)},
			{"positionX", s.X.Pixels()},
			{"positionY", s.Y.Pixels()},
			{"rotation", s.Rotation.Radians()},
		}
	}
	return Object{{"serverTick", v.ServerTick}, {"entityCount", len(v.States)}, {"states", list}}
}

// actionNames lists the held actions of an Input in bit order (§7.1).
func actionNames(a rtype.Actions) names {
	n := names{}
	for _, x := range []struct {
		bit  rtype.Actions
		name string
	}{
		{rtype.ActionUp, "Up"}, {rtype.ActionDown, "Down"}, {rtype.ActionLeft, "Left"},
		{rtype.ActionRight, "Right"}, {rtype.ActionShoot, "Shoot"},
	} {
		if a.Has(x.bit) {
			n = append(n, x.name)
		}
	}
	return n
}

// Object is the output form of a message: type, typeId, size and valid
// first, then ignored for a type outside the catalog, or its error, or its
// fields. The payload is shown raw when it was not decoded.
func (m *Message) Object() Object {
	o := Object{}.Add("type", m.Name()).
		Add("typeId", hex16(m.Raw.Type)).
		Add("size", len(m.Raw.Payload)).
		Add("valid", m.Err == nil)
	if m.Ignored() {
		o = o.Add("ignored", true)
	}
	if m.Err != nil {
		o = o.Add("error", m.Err.Error())
	}
	o = append(o, m.fields...)
	if m.Err != nil || m.Ignored() {
		o = o.Add("payload", hexBytes(m.Raw.Payload))
	}
	return o
}
