package main

import (
	"errors"

	"github.com/rtypeproto/rtype"
)

// decodedMessage is one message of a well-framed packet (§5.3) with the
// result of its own checks (§7, §8).
type decodedMessage struct {
	raw rtype.RawMessage
	// err is why a receiver drops this message, nil if it keeps it.
	err error
	// fields are the decoded payload fields, empty when err is set.
	fields object
}

// errTypeZero marks a message of type 0, which §6 says is invalid and never
// sent.
var errTypeZero = errors.New("rtype: message type 0 is invalid")

// messageName returns the catalog name of a type (§6), or "unknown".
func messageName(t rtype.MessageType) string {
	if !t.Known() {
		return "unknown"
	}
	return t.String()
}

// decodeMessage checks and decodes one message with the library's decoder
// for its type. A type the catalog does not list is kept as "unknown": §6
// has receivers ignore it and keep processing the packet, so it is not an
// error, except type 0, which is invalid. states is reused between
// Snapshots.
func decodeMessage(m rtype.RawMessage, states *[]rtype.EntityState) decodedMessage {
	d := decodedMessage{raw: m}
	p := m.Payload
	switch m.Type {
	case rtype.TypeInput:
		var v rtype.Input
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("inputSequence", v.InputSequence).
				add("clientTick", v.ClientTick).
				add("actions", actionNames(v.Actions))
		}
	case rtype.TypePing:
		var v rtype.Ping
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("timestamp", v.Timestamp)
		}
	case rtype.TypeDisconnect:
		var v rtype.Disconnect
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("reason", uint8(v.Reason))
			if v.Reason >= rtype.DisconnectClientQuit && v.Reason <= rtype.DisconnectServerShutdown {
				d.fields = d.fields.add("reasonName", v.Reason.String())
			}
		}
	case rtype.TypeQueryEntity:
		var v rtype.QueryEntity
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("networkId", v.NetworkID)
		}
	case rtype.TypeSnapshot:
		v := rtype.Snapshot{States: (*states)[:0]}
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			*states = v.States
			d.fields = snapshotFields(v)
		}
	case rtype.TypeCreateEntity:
		var v rtype.CreateEntity
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("serverTick", v.ServerTick).
				add("networkId", v.NetworkID).
				add("entityType", hex16(v.EntityType))
			if name, ok := v.EntityType.Name(); ok {
				d.fields = d.fields.add("archetype", name)
			}
			d.fields = d.fields.add("positionX", v.X.Pixels()).
				add("positionY", v.Y.Pixels()).
				add("rotation", v.Rotation.Radians())
		}
	case rtype.TypeDestroyEntity:
		var v rtype.DestroyEntity
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("serverTick", v.ServerTick).
				add("networkId", v.NetworkID).
				add("reason", uint8(v.Reason)).
				add("reasonName", v.Reason.String())
		}
	case rtype.TypePong:
		var v rtype.Pong
		if d.err = v.UnmarshalBinary(p); d.err == nil {
			d.fields = object{}.add("timestamp", v.Timestamp)
		}
	case 0:
		d.err = errTypeZero
	}
	return d
}

// snapshotFields lists a Snapshot (§8.1). entityType is only the low byte of
// the archetype id, so no blueprint name is guessed from it.
func snapshotFields(v rtype.Snapshot) object {
	list := make([]object, len(v.States))
	for i, s := range v.States {
		list[i] = object{}.add("networkId", s.NetworkID).
			add("entityType", hex8(s.EntityType)).
			add("positionX", s.X.Pixels()).
			add("positionY", s.Y.Pixels()).
			add("rotation", s.Rotation.Radians())
	}
	return object{}.add("serverTick", v.ServerTick).
		add("entityCount", len(v.States)).
		add("states", list)
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

// messageObject is the output form of a message: type, typeId, size and
// valid first, then its error or its fields. The payload is shown raw when
// it was not decoded.
func messageObject(m decodedMessage) object {
	o := object{}.add("type", messageName(m.raw.Type)).
		add("typeId", hex16(m.raw.Type)).
		add("size", len(m.raw.Payload)).
		add("valid", m.err == nil)
	if m.err != nil {
		o = o.add("error", m.err.Error())
	}
	o = append(o, m.fields...)
	if m.err != nil || !m.raw.Type.Known() {
		o = o.add("payload", hexBytes(m.raw.Payload))
	}
	return o
}
