package wiremon

import (
	"errors"
	"fmt"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// Rule is one rule of every datagram the implementation sends.
type Rule uint8

// The rules, in the order of the spec.
const (
	Size          Rule = iota // §2.2: at most 548 bytes
	Handshake                 // §4: a datagram to an address with no connection is a valid handshake datagram
	WelcomeID                 // §4.3: a Welcome's connectionId is not 0
	ConnID                    // §5.1: a packet carries its connection's id
	Numbering                 // §5.2: 1, then one more each packet
	Framing                   // §5.3: messages fill the packet exactly
	TypeRange                 // §6: the sender's range of types
	SnapCount                 // §8.1: at most 47 states
	SnapSize                  // §8.1: 6 + 11 × entityCount bytes
	SnapZeroID                // §8.1: no networkId 0
	SnapDupID                 // §8.1: no networkId twice
	CreateSize                // §8.2: 16 bytes
	CreateZeroID              // §8.2: no networkId 0
	DestroySize               // §8.3: 9 bytes
	DestroyZeroID             // §8.3: no networkId 0
	DestroyReason             // §8.3: reason at most 4
	Message                   // §7, §8: any other message a receiver drops
	Clamp                     // §9.1: no position jumps across the range
	NumRules
)

var rules = [NumRules]struct{ section, of string }{
	Size:          {"§2.2", "datagrams"},
	Handshake:     {"§4", "handshake datagrams"},
	WelcomeID:     {"§4.3", "Welcomes"},
	ConnID:        {"§5.1", "packets"},
	Numbering:     {"§5.2", "packets"},
	Framing:       {"§5.3", "packets"},
	TypeRange:     {"§6", "messages"},
	SnapCount:     {"§8.1", "Snapshots"},
	SnapSize:      {"§8.1", "Snapshots"},
	SnapZeroID:    {"§8.1", "Snapshots"},
	SnapDupID:     {"§8.1", "Snapshots"},
	CreateSize:    {"§8.2", "CreateEntity messages"},
	CreateZeroID:  {"§8.2", "CreateEntity messages"},
	DestroySize:   {"§8.3", "DestroyEntity messages"},
	DestroyZeroID: {"§8.3", "DestroyEntity messages"},
	DestroyReason: {"§8.3", "DestroyEntity messages"},
	Message:       {"§7, §8", "messages"},
	Clamp:         {"§9.1", "moves of an entity between two Snapshots"},
}

// Section returns the section of the spec that states r.
func (r Rule) Section() string {
	if r < NumRules {
		return rules[r].section
	}
	return ""
}

// Of names what r is judged on, in the plural: "datagrams", "Snapshots".
func (r Rule) Of() string {
	if r < NumRules {
		return rules[r].of
	}
	return ""
}

// message judges one message of a well-framed packet of connection id: its
// type's range (§6), and whether a receiver keeps it (§7, §8), as the
// library's decoder checks it.
func (w *Monitor) message(c *conn, n *numbering, seq uint32, m *wiredump.Message, at moment) {
	t := m.Raw.Type
	inRange := t >= 0x80 && t <= 0xFF
	if w.role == Client {
		inRange = t >= 0x01 && t <= 0x7F
	}
	// The texts are made only for a breach: a run judges millions of
	// messages and breaks few rules.
	where := func(what string) string {
		return fmt.Sprintf("%s's packet %d at %v carries %s", w.conn(c, n.id), seq, at, what)
	}
	w.check(TypeRange, inRange, func() string {
		return where(fmt.Sprintf("a message of type %#04x (%d bytes)", uint16(t), len(m.Raw.Payload)))
	})
	err, size := m.Err, len(m.Raw.Payload)
	is := func(e error) bool { return errors.Is(err, e) }
	if err == nil && w.role == Server {
		w.entities(c, n, m, at)
	}
	switch t {
	case rtype.TypeSnapshot:
		count := -1
		if size >= rtype.SnapshotHeaderSize {
			count = int(m.Raw.Payload[4])<<8 | int(m.Raw.Payload[5])
		}
		w.check(SnapCount, !is(rtype.ErrTooManyStates), func() string { return where(fmt.Sprintf("a Snapshot with entityCount %d", count)) })
		w.check(SnapSize, !is(rtype.ErrPayloadSize), func() string { return where(fmt.Sprintf("a Snapshot of %d bytes with entityCount %d", size, count)) })
		// Only a Snapshot with states can list id 0, only one of two
		// states or more an id twice.
		if count >= 1 || is(rtype.ErrZeroNetworkID) {
			w.check(SnapZeroID, !is(rtype.ErrZeroNetworkID), func() string { return where("a Snapshot listing networkId 0") })
		}
		if count >= 2 || is(rtype.ErrDuplicateNetworkID) {
			w.check(SnapDupID, !is(rtype.ErrDuplicateNetworkID), func() string { return where("a Snapshot listing one networkId twice") })
		}
	case rtype.TypeCreateEntity:
		w.check(CreateSize, !is(rtype.ErrPayloadSize), func() string { return where(fmt.Sprintf("a CreateEntity of %d bytes", size)) })
		w.check(CreateZeroID, !is(rtype.ErrZeroNetworkID), func() string { return where("a CreateEntity of networkId 0") })
	case rtype.TypeDestroyEntity:
		w.check(DestroySize, !is(rtype.ErrPayloadSize), func() string { return where(fmt.Sprintf("a DestroyEntity of %d bytes", size)) })
		w.check(DestroyZeroID, !is(rtype.ErrZeroNetworkID), func() string { return where("a DestroyEntity of networkId 0") })
		reason := -1
		if size >= 9 {
			reason = int(m.Raw.Payload[8])
		}
		w.check(DestroyReason, !is(rtype.ErrDestroyReason), func() string { return where(fmt.Sprintf("a DestroyEntity with reason %d", reason)) })
	default:
		if t.Known() {
			w.check(Message, err == nil, func() string { return where(fmt.Sprintf("a %s message a receiver drops: %v", t, err)) })
		}
	}
}

// entities follows the entities of a valid message of the server (§9.1).
func (w *Monitor) entities(c *conn, n *numbering, m *wiredump.Message, at moment) {
	switch m.Raw.Type {
	case rtype.TypeSnapshot:
		w.snapshot(c, n, m.Raw.Payload, at)
	case rtype.TypeCreateEntity:
		w.created(c, n, m.Raw.Payload)
	case rtype.TypeDestroyEntity:
		w.destroyed(c, n, m.Raw.Payload)
	}
}
