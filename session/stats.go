package session

import (
	"net/netip"
	"strconv"
	"time"
)

// DropReason names the rule that made a side drop a datagram or a message.
type DropReason uint8

// Drop reasons. Datagram-level reasons drop the whole datagram without an
// answer (§12); message-level ones drop one message and the rest of the
// packet is processed (§6).
const (
	// DropTooLarge: a datagram over 548 bytes (§2.2).
	DropTooLarge DropReason = iota
	// DropBadHandshake: a handshake datagram too short, with a bad magic,
	// version or type (§4.1, §4.2).
	DropBadHandshake
	// DropHandshakeSize: a handshake datagram whose size is wrong for its
	// type: a Welcome not exactly 10 bytes (§4.3), a Rejected with extra
	// bytes (§4.4), a Hello not 6 bytes.
	DropHandshakeSize
	// DropZeroConnectionID: a Welcome with connection id 0 (§4.3).
	DropZeroConnectionID
	// DropUnexpectedHandshake: a valid handshake datagram this side never
	// receives: Hello at a client, Welcome or Rejected at a server.
	DropUnexpectedHandshake
	// DropNotFromServer: a client got a datagram that is not from the
	// server address and port (§3).
	DropNotFromServer
	// DropClosed: a client got a datagram after its connection ended.
	DropClosed
	// DropShortPacket: a connected packet shorter than 16 bytes (§5.4).
	DropShortPacket
	// DropUnknownConnection: a connectionId that matches no open
	// connection (§5.4); from an address without one, an id that no
	// Welcome to that address carried in the last 5 to 10 s, or a
	// sequence above 64, which no first packet has (§4.2, §12).
	DropUnknownConnection
	// DropWrongAddress: the connection with that id is bound to another
	// address (§5.4).
	DropWrongAddress
	// DropWrongConnection: a client got a packet whose connectionId is not
	// its own (§5.4).
	DropWrongConnection
	// DropDuplicate: a sequence already received (§5.2).
	DropDuplicate
	// DropTooOld: a sequence more than 32 below the highest (§5.2).
	DropTooOld
	// DropFraming: a truncated message header, a size past the end, or
	// bytes after the last message (§5.3).
	DropFraming
	// DropServerFull: with Rejected disabled (§13.1), a Hello to a full
	// server or to one shutting down; or a validated first packet, or a waiting client's
	// packet after Shutdown, that would have been answered Rejected because
	// every player slot and the waiting queue are taken or the game is
	// ending (§4.4).
	DropServerFull
	// DropClosedConnection: a connected packet, from an address without a
	// connection, with the id of a connection of that address that closed
	// within the last 10 s: a late packet must not open it again (§7.3).
	DropClosedConnection
	// DropUnknownMessage: a message type this side does not receive (§6).
	DropUnknownMessage
	// DropInput: an Input not exactly 9 bytes or with reserved bits (§7.1).
	DropInput
	// DropStaleInput: an inputSequence not newer than the last accepted
	// one (§7.1).
	DropStaleInput
	// DropPing: a Ping not exactly 4 bytes (§7.2).
	DropPing
	// DropDisconnect: a Disconnect not exactly 1 byte (§7.3).
	DropDisconnect
	// DropQueryEntity: a QueryEntity not exactly 4 bytes or for id 0
	// (§7.4).
	DropQueryEntity
	// DropSnapshot: a Snapshot with more than 47 states, a wrong size, an
	// id 0 or an id twice (§8.1).
	DropSnapshot
	// DropCreateEntity: a CreateEntity not exactly 16 bytes or for id 0
	// (§8.2).
	DropCreateEntity
	// DropKnownEntity: a CreateEntity for an id that exists (§8.2), or for
	// an id destroyed at a later tick than the creation.
	DropKnownEntity
	// DropEntityLimit: a CreateEntity past MaxEntities (§12).
	DropEntityLimit
	// DropDestroyEntity: a DestroyEntity not exactly 9 bytes, for id 0 or
	// with a reason above 4 (§8.3).
	DropDestroyEntity
	// DropPong: a Pong not exactly 4 bytes, or matching no Ping (§8.4).
	DropPong

	// NumDropReasons is the number of drop reasons.
	NumDropReasons
)

var dropNames = [NumDropReasons]string{
	"TooLarge", "BadHandshake", "HandshakeSize", "ZeroConnectionID",
	"UnexpectedHandshake", "NotFromServer", "Closed", "ShortPacket",
	"UnknownConnection", "WrongAddress", "WrongConnection", "Duplicate",
	"TooOld", "Framing", "ServerFull", "ClosedConnection", "UnknownMessage",
	"Input", "StaleInput", "Ping", "Disconnect", "QueryEntity", "Snapshot",
	"CreateEntity", "KnownEntity", "EntityLimit", "DestroyEntity", "Pong",
}

// String names the reason.
func (r DropReason) String() string {
	if r < NumDropReasons {
		return dropNames[r]
	}
	return "DropReason(" + strconv.Itoa(int(r)) + ")"
}

// Drops counts drops by reason.
type Drops [NumDropReasons]uint64

// Total returns the number of drops of every reason.
func (d *Drops) Total() uint64 {
	var n uint64
	for _, v := range d {
		n += v
	}
	return n
}

// Stats are the counters of one side. They are a plain value: reading them
// allocates nothing.
type Stats struct {
	// PacketsIn and BytesIn count every datagram received, valid or not.
	PacketsIn, BytesIn uint64
	// PacketsOut and BytesOut count every datagram sent.
	PacketsOut, BytesOut uint64
	// Drops counts the datagrams and messages dropped, by rule.
	Drops Drops
	// Resends counts CreateEntity and DestroyEntity copies sent again
	// because the acks showed the packet of the last copy lost (§13.4).
	Resends uint64
	// RedundantDestroys counts the second copies of DestroyEntity
	// messages that reliable events send, once each, in the packet of the
	// next Tick without waiting for an ack, so that a lost destruction
	// rarely needs a resend (§8.3, §13.4). They are not counted in
	// Resends.
	RedundantDestroys uint64
	// Welcomes counts the Welcomes a server sent: one for each valid
	// Hello from an address without a connection, repeated ones too
	// (§4.3, §13.2), while it is not full.
	Welcomes uint64
	// Waited counts the validated clients that found no player slot and
	// entered the waiting queue (§4.3, §10).
	Waited uint64
	// Rejected counts Rejected datagrams sent (server) or received
	// (client) (§4.4).
	Rejected uint64
	// EventsLost counts events pushed out of a full event queue.
	EventsLost uint64
	// SRTT is the smoothed round-trip time: a client measures it with
	// Ping and Pong (§7.2), a server from the acks of its packets (§5.2),
	// averaged over its connections.
	SRTT time.Duration
	// Pongs counts the Pongs a client matched with its Pings, each
	// reported by an [EventPong] (§7.2, §8.4).
	Pongs uint64
	// Snapshots counts the Snapshot messages a client accepted, or a
	// server sent (§8.1): several per serverTick when the world needs more
	// than 47 states.
	Snapshots uint64
	// PacketsAccepted counts the peer's connected packets that passed the
	// checks of §5.2 and §5.4 and were processed.
	PacketsAccepted uint64
	// PacketsLost counts the peer's packets that never arrived: sequence
	// numbers that left the window of §5.2 (the highest received and the
	// 32 below it) without being received, after which they would be
	// dropped as too old. A gap is counted once it is final, so a packet
	// that arrives out of order is never counted lost. Sequences below
	// the first packet received are not counted, and one jump of the
	// highest sequence counts at most 33, a window's worth.
	PacketsLost uint64
}

// Loss returns the fraction of the peer's packets that never arrived:
// PacketsLost / (PacketsAccepted + PacketsLost), 0 before any packet. It
// lags by the 33 packets a gap needs to become final.
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
	// Sent counts the packets sent on the connection.
	Sent uint64
	// Acked counts the packets the client acknowledged (§5.2).
	Acked uint64
	// Lost counts the packets that left the client's window without being
	// acknowledged (§5.2): an ack more than 32 above them arrived, or 64
	// more packets were sent before any did. A late client packet that
	// acknowledges one after all moves it back to Acked.
	Lost uint64
	// Resends counts entity events sent again (§13.4).
	Resends uint64
	// RedundantDestroys counts the second copies of DestroyEntity sent
	// without waiting for an ack, as in [Stats] (§8.3, §13.4).
	RedundantDestroys uint64
	// Pending is the number of entities whose CreateEntity or
	// DestroyEntity the client is owed or has not acknowledged (§13.4).
	Pending int
	// SRTT is the smoothed round-trip time measured from acks.
	SRTT time.Duration
}

// Loss returns the fraction of resolved packets that were lost: Lost /
// (Acked + Lost), 0 before any packet is resolved.
func (s ConnStats) Loss() float64 {
	if s.Acked+s.Lost == 0 {
		return 0
	}
	return float64(s.Lost) / float64(s.Acked+s.Lost)
}
