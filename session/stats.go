package session

import (
	"iter"
	"net/netip"
	"strconv"
	"time"
)

// DropReason names the rule that made a side drop a datagram or a message.
type DropReason uint8

// Drop reasons. Each drops a whole datagram unanswered (§12) or one
// message of a processed packet (§6): [DropReason.Datagram] says which.
const (
	// DropTooLarge: a datagram over 548 bytes (§2.2).
	DropTooLarge DropReason = iota
	// DropBadHandshake: a handshake datagram too short or with a bad
	// magic, version or type (§4.1, §4.2).
	DropBadHandshake
	// DropHandshakeSize: a handshake datagram whose size is wrong for its
	// type: a Welcome not exactly 10 bytes (§4.3), a Rejected with extra
	// bytes (§4.4), a Hello not 6 bytes.
	DropHandshakeSize
	// DropZeroConnectionID: a Welcome with connection id 0 (§4.3).
	DropZeroConnectionID
	// DropUnexpectedHandshake: a valid Hello at a client, or Welcome or
	// Rejected at a server.
	DropUnexpectedHandshake
	// DropNotFromServer: at a client, not from the server's address (§3).
	DropNotFromServer
	// DropClosed: a datagram to a Client whose connection ended, or to a
	// Server after Close.
	DropClosed
	// DropShortPacket: a connected packet shorter than 16 bytes (§5.4).
	DropShortPacket
	// DropUnknownConnection: a connectionId of no open connection (§5.4);
	// from an address without one, an id no Welcome to it carried in the
	// last 5 to 10 s (§4.2, §12).
	DropUnknownConnection
	// DropWrongAddress: the id's connection has another address (§5.4).
	DropWrongAddress
	// DropWrongConnection: at a client, another connectionId (§5.4).
	DropWrongConnection
	// DropDuplicate: a sequence already received (§5.2).
	DropDuplicate
	// DropTooOld: a sequence more than 32 below the highest (§5.2).
	DropTooOld
	// DropFraming: a truncated message header, a size past the end or
	// bytes after the last message (§5.3).
	DropFraming
	// DropServerFull: with Rejected disabled (§13.1), what would get
	// Rejected (§4.4): a Hello to a full or shutting-down server, a
	// validated first packet finding every slot and the queue taken or the
	// game ending, or a waiting client's packet after Shutdown.
	DropServerFull
	// DropClosedConnection: from an address without a connection, the id
	// of one of its connections closed in the last 10 s, which a late
	// packet must not reopen (§7.3).
	DropClosedConnection
	// DropFirstSequence: from an address without a connection, a packet
	// numbered 0 or above 64, which cannot be a connection's first (§5.2):
	// late packets of a closed connection never reopen it (§12).
	DropFirstSequence
	// DropUnknownMessage: a message type this side does not receive (§6).
	DropUnknownMessage
	// DropInput: an Input not exactly 9 bytes or with reserved bits (§7.1).
	DropInput
	// DropStaleInput: an inputSequence not above the last accepted (§7.1).
	DropStaleInput
	// DropPing: a Ping not exactly 4 bytes (§7.2).
	DropPing
	// DropDisconnect: a Disconnect not exactly 1 byte (§7.3).
	DropDisconnect
	// DropQueryEntity: a QueryEntity not 4 bytes or for id 0 (§7.4).
	DropQueryEntity
	// DropSnapshot: over 47 states, a wrong size, id 0 or an id twice (§8.1).
	DropSnapshot
	// DropCreateEntity: a CreateEntity not 16 bytes or for id 0 (§8.2).
	DropCreateEntity
	// DropKnownEntity: a CreateEntity for an existing id (§8.2), or for an
	// id destroyed at a later tick than the creation.
	DropKnownEntity
	// DropEntityLimit: a CreateEntity past MaxEntities (§12).
	DropEntityLimit
	// DropDestroyEntity: not 9 bytes, id 0 or a reason above 4 (§8.3).
	DropDestroyEntity
	// DropPong: a Pong not exactly 4 bytes, or matching no Ping (§8.4).
	DropPong

	// numDropReasons is the number of drop reasons: Drops' room.
	numDropReasons
)

// dropScope is what a drop discards.
type dropScope uint8

const (
	// wholeDatagram: the datagram, unanswered (§12).
	wholeDatagram dropScope = iota
	// oneMessage: one message of a packet otherwise processed (§6).
	oneMessage
)

// dropRule is what a drop reason is: its Go name, its stable key and what
// it discards.
type dropRule struct {
	name, key string
	scope     dropScope
}

// dropRules is every reason's rule, the one place that says them.
var dropRules = [numDropReasons]dropRule{
	DropTooLarge:            {"TooLarge", "datagram-too-large", wholeDatagram},
	DropBadHandshake:        {"BadHandshake", "bad-handshake", wholeDatagram},
	DropHandshakeSize:       {"HandshakeSize", "handshake-size", wholeDatagram},
	DropZeroConnectionID:    {"ZeroConnectionID", "zero-connection-id", wholeDatagram},
	DropUnexpectedHandshake: {"UnexpectedHandshake", "unexpected-handshake", wholeDatagram},
	DropNotFromServer:       {"NotFromServer", "not-from-server", wholeDatagram},
	DropClosed:              {"Closed", "closed", wholeDatagram},
	DropShortPacket:         {"ShortPacket", "short-packet", wholeDatagram},
	DropUnknownConnection:   {"UnknownConnection", "unknown-connection", wholeDatagram},
	DropWrongAddress:        {"WrongAddress", "wrong-address", wholeDatagram},
	DropWrongConnection:     {"WrongConnection", "connection-id-differs", wholeDatagram},
	DropDuplicate:           {"Duplicate", "duplicate-sequence", wholeDatagram},
	DropTooOld:              {"TooOld", "sequence-too-old", wholeDatagram},
	DropFraming:             {"Framing", "framing", wholeDatagram},
	DropServerFull:          {"ServerFull", "server-full", wholeDatagram},
	DropClosedConnection:    {"ClosedConnection", "closed-connection", wholeDatagram},
	DropFirstSequence:       {"FirstSequence", "first-sequence", wholeDatagram},
	DropUnknownMessage:      {"UnknownMessage", "unknown-message", oneMessage},
	DropInput:               {"Input", "input", oneMessage},
	DropStaleInput:          {"StaleInput", "stale-input", oneMessage},
	DropPing:                {"Ping", "ping", oneMessage},
	DropDisconnect:          {"Disconnect", "disconnect", oneMessage},
	DropQueryEntity:         {"QueryEntity", "query-entity", oneMessage},
	DropSnapshot:            {"Snapshot", "snapshot", oneMessage},
	DropCreateEntity:        {"CreateEntity", "create-entity", oneMessage},
	DropKnownEntity:         {"KnownEntity", "known-entity", oneMessage},
	DropEntityLimit:         {"EntityLimit", "entity-limit", oneMessage},
	DropDestroyEntity:       {"DestroyEntity", "destroy-entity", oneMessage},
	DropPong:                {"Pong", "pong", oneMessage},
}

// Key returns the reason's stable name in kebab-case, for traces and
// metrics: the key rtypedump gives the same rule where it names one
// ("datagram-too-large", "duplicate-sequence"), the reason's own name
// otherwise. A reason out of range is "other".
func (r DropReason) Key() string {
	if r < numDropReasons {
		return dropRules[r].key
	}
	return "other"
}

// String names the reason.
func (r DropReason) String() string {
	if r < numDropReasons {
		return dropRules[r].name
	}
	return "DropReason(" + strconv.Itoa(int(r)) + ")"
}

// Datagram reports whether r drops a whole datagram, unanswered (§12),
// rather than one message of a packet otherwise processed (§6).
func (r DropReason) Datagram() bool {
	return r < numDropReasons && dropRules[r].scope == wholeDatagram
}

// Drops counts drops by reason, a plain value read without allocating.
// Reasons added later grow it without changing its methods.
type Drops struct {
	n [numDropReasons]uint64
}

// Count returns the drops of reason r.
func (d Drops) Count(r DropReason) uint64 {
	if r < numDropReasons {
		return d.n[r]
	}
	return 0
}

// Total returns the number of drops of every reason.
func (d Drops) Total() uint64 {
	var n uint64
	for _, v := range d.n {
		n += v
	}
	return n
}

// Add adds o's drops to d.
func (d *Drops) Add(o *Drops) {
	for r, v := range o.n {
		d.n[r] += v
	}
}

// All yields every reason, in order, with its count, zero or not.
func (d Drops) All() iter.Seq2[DropReason, uint64] {
	return func(yield func(DropReason, uint64) bool) {
		for r, v := range d.n {
			if !yield(DropReason(r), v) {
				return
			}
		}
	}
}

// String lists the reasons counted, as Key=count; "none" when none is.
func (d Drops) String() string {
	var b []byte
	for r, v := range d.n {
		if v != 0 {
			if b != nil {
				b = append(b, ' ')
			}
			b = append(b, DropReason(r).Key()...)
			b = append(b, '=')
			b = strconv.AppendUint(b, v, 10)
		}
	}
	if b == nil {
		return "none"
	}
	return string(b)
}

// Equal reports whether d and o count the same drops (go-cmp uses it).
func (d Drops) Equal(o Drops) bool { return d == o }

// add counts one drop of r.
func (d *Drops) add(r DropReason) { d.n[r]++ }

// Stats are the counters of one side, a plain value read without allocating.
type Stats struct {
	// PacketsIn and BytesIn count every datagram received, valid or not.
	PacketsIn, BytesIn uint64
	// PacketsOut and BytesOut count every datagram sent.
	PacketsOut, BytesOut uint64
	// Drops counts the datagrams and messages dropped, by rule.
	Drops Drops
	// Resends counts CreateEntity and DestroyEntity copies resent since the
	// acks showed the last copy lost (§13.4).
	Resends uint64
	// RedundantDestroys counts the second copy of each DestroyEntity that
	// reliable events send at the next Tick without waiting for an ack, so a
	// lost destruction rarely needs a resend (§8.3, §13.4); not in Resends.
	RedundantDestroys uint64
	// Welcomes counts the Welcomes a server sent, one per valid Hello from
	// an address without a connection while not full (§4.3, §13.2).
	Welcomes uint64
	// Waited counts the validated clients queued for a slot (§4.3, §10).
	Waited uint64
	// Rejected counts Rejected sent (server) or received (client) (§4.4).
	Rejected uint64
	// EventsLost counts events pushed out of a full event queue.
	EventsLost uint64
	// SRTT is the smoothed round-trip time: a client's from Ping and Pong
	// (§7.2), a server's from acks (§5.2), averaged over its connections.
	SRTT time.Duration
	// Pongs counts a client's Pongs matched with Pings, each an [EventPong]
	// (§7.2, §8.4).
	Pongs uint64
	// Snapshots counts the Snapshot messages a client accepted or a server
	// sent (§8.1): several per serverTick beyond 47 states.
	Snapshots uint64
	// PacketsAccepted counts the peer's packets processed (§5.2, §5.4).
	PacketsAccepted uint64
	// RTT counts the round-trip samples, in seconds: a client's from Ping
	// and Pong (§7.2), a server's from acks (§5.1, §5.2).
	RTT Histogram
	// SnapshotSizes counts, at a server, the size in bytes of each datagram
	// it sent with a Snapshot (§8.1, §2.2).
	SnapshotSizes Histogram
	// PacketsLost counts the peer's packets that never arrived: sequences
	// that left the §5.2 window (the highest and the 32 below) unreceived,
	// to be dropped as too old after. A gap counts once final, so an
	// out-of-order packet is never lost; sequences below the first received
	// do not count, and one jump of the highest counts at most 33.
	PacketsLost uint64
}

// Loss returns PacketsLost / (PacketsAccepted + PacketsLost), 0 before any
// packet, lagging by the 33 packets a gap needs to become final.
func (s Stats) Loss() float64 {
	if s.PacketsAccepted+s.PacketsLost == 0 {
		return 0
	}
	return float64(s.PacketsLost) / float64(s.PacketsAccepted+s.PacketsLost)
}

// ConnStats are the counters of one server connection.
type ConnStats struct {
	// Conn is the connection id.
	Conn uint32
	// Addr is the address the connection is bound to.
	Addr netip.AddrPort
	// Slot is the player slot.
	Slot uint8
	// Open is set for a connection open now; clear, the counters are those
	// it had when it closed.
	Open bool
	// Sent counts the packets sent on the connection.
	Sent uint64
	// Acked counts the packets the client acknowledged (§5.2).
	Acked uint64
	// Lost counts the packets that left the client's window unacknowledged
	// (§5.2): an ack over 32 above arrived, or 64 more were sent before any.
	// A late ack of one moves it back to Acked.
	Lost uint64
	// Resends counts entity events sent again (§13.4).
	Resends uint64
	// RedundantDestroys is as in [Stats] (§8.3, §13.4).
	RedundantDestroys uint64
	// Pending counts the entities whose CreateEntity or DestroyEntity the
	// client is owed or has not acknowledged (§13.4).
	Pending int
	// SRTT is the smoothed round-trip time measured from acks.
	SRTT time.Duration
}

// Loss returns Lost / (Acked + Lost), 0 before any packet is resolved.
func (s ConnStats) Loss() float64 {
	if s.Acked+s.Lost == 0 {
		return 0
	}
	return float64(s.Lost) / float64(s.Acked+s.Lost)
}
