package wiredump

import "github.com/rtypeproto/rtype"

// Message is one message of a well-framed packet (§5.3) with the result of
// its own checks (§6 to §8).
type Message struct {
	// Raw is the message as framed: its type and payload.
	Raw rtype.RawMessage
	// Err is why a receiver drops this message alone, nil if it keeps it.
	Err error
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

// decodeMessage checks one message with the library's decoder for its
// type, without allocating. A type the catalog does not list, 0 included,
// is no error: a receiver ignores it (§6). Its fields are decoded again
// only when an output asks for them ([Message.Object]): most readers of a
// message want its verdict alone.
func decodeMessage(m rtype.RawMessage) Message {
	_, err := payload(m.Type, m.Payload, false)
	return Message{Raw: m, Err: err}
}

// fields decodes the payload of a message a receiver keeps into its
// output fields; none for a type outside the catalog.
func (m *Message) fields() Object {
	o, _ := payload(m.Raw.Type, m.Raw.Payload, true)
	return o
}

// payload decodes payload p of a message of type t as the library's
// decoder of t does, and returns why a receiver drops the message (nil if
// it keeps it) and, when asked and kept, its output fields in the order
// of the spec's tables.
func payload(t rtype.MessageType, p []byte, fields bool) (Object, error) {
	switch t {
	case rtype.TypeInput:
		var v rtype.Input
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		return Object{}.Add("inputSequence", v.InputSequence).
			Add("clientTick", v.ClientTick).
			Add("actions", actionNames(v.Actions)), nil
	case rtype.TypePing:
		var v rtype.Ping
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		return Object{}.Add("timestamp", v.Timestamp), nil
	case rtype.TypeDisconnect:
		var v rtype.Disconnect
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		o := Object{}.Add("reason", uint8(v.Reason))
		if v.Reason >= rtype.DisconnectClientQuit && v.Reason <= rtype.DisconnectServerShutdown {
			o = o.Add("reasonName", v.Reason.String())
		}
		return o, nil
	case rtype.TypeQueryEntity:
		var v rtype.QueryEntity
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		return Object{}.Add("networkId", v.NetworkID), nil
	case rtype.TypeSnapshot:
		// The checks of Snapshot.UnmarshalBinary, the states read in
		// place.
		tick, states, err := rtype.ParseSnapshot(p)
		if err != nil || !fields {
			return nil, err
		}
		return snapshotFields(tick, states), nil
	case rtype.TypeCreateEntity:
		var v rtype.CreateEntity
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		o := Object{}.Add("serverTick", v.ServerTick).
			Add("networkId", v.NetworkID).
			Add("entityType", hex16(v.EntityType))
		if name, ok := v.EntityType.Name(); ok {
			o = o.Add("archetype", name)
		}
		return o.Add("positionX", v.X.Pixels()).
			Add("positionY", v.Y.Pixels()).
			Add("rotation", v.Rotation.Radians()), nil
	case rtype.TypeDestroyEntity:
		var v rtype.DestroyEntity
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		return Object{}.Add("serverTick", v.ServerTick).
			Add("networkId", v.NetworkID).
			Add("reason", uint8(v.Reason)).
			Add("reasonName", v.Reason.String()), nil
	case rtype.TypePong:
		var v rtype.Pong
		if err := v.UnmarshalBinary(p); err != nil || !fields {
			return nil, err
		}
		return Object{}.Add("timestamp", v.Timestamp), nil
	}
	return nil, nil
}

// snapshotFields lists a Snapshot (§8.1). entityType is only the low byte of
// the archetype id, so no blueprint name is guessed from it.
func snapshotFields(tick uint32, states rtype.SnapshotStates) Object {
	// Literals, not Add: a Snapshot holds up to 47 states, and growing
	// each one's fields by appends was most of a capture's decoding.
	list := make([]Object, states.Len())
	for i := range list {
		s := states.At(i)
		list[i] = Object{
			{"networkId", s.NetworkID},
			{"entityType", hex8(s.EntityType)},
			{"positionX", s.X.Pixels()},
			{"positionY", s.Y.Pixels()},
			{"rotation", s.Rotation.Radians()},
		}
	}
	return Object{{"serverTick", tick}, {"entityCount", len(list)}, {"states", list}}
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
	if m.Err == nil {
		o = append(o, m.fields()...)
	}
	if m.Err != nil || m.Ignored() {
		o = o.Add("payload", hexBytes(m.Raw.Payload))
	}
	return o
}
