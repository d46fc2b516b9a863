package session

import (
	"errors"
	"iter"
	"strconv"

	"github.com/rtypeproto/rtype"
)

// DropReason names the rule that made a receiver drop a datagram or a
// message. It is the toolkit's one taxonomy of drops: the Server and the
// Client count by it, traces, qlog and Prometheus name it by its Key, and
// rtypedump names what it decodes by the same keys ([DropReasonOf] maps
// package rtype's decoding errors to it).
type DropReason uint8

// Drop reasons, in the order of the spec. Each drops a whole datagram
// unanswered (§12) or one message of a processed packet (§6):
// [DropReason.Datagram] says which; [DropReason.Rule] states the rule.
const (
	// DropTooLarge: a datagram over 548 bytes (§2.2).
	DropTooLarge DropReason = iota
	// DropNotFromServer: at a client, not from the server's address (§3).
	DropNotFromServer
	// DropShortHandshake: a handshake datagram under 6 bytes (§4.1).
	DropShortHandshake
	// DropBadMagic: a handshake magic not 0x52545950 (§4.1).
	DropBadMagic
	// DropBadVersion: a handshake version not 1 (§4.1).
	DropBadVersion
	// DropBadHandshakeType: a handshake type not 1, 2 or 3 (§4.1).
	DropBadHandshakeType
	// DropHandshakeSize: a handshake datagram whose size is wrong for its
	// type: a Welcome not exactly 10 bytes (§4.3), a Rejected with extra
	// bytes (§4.4), a Hello not 6 bytes.
	DropHandshakeSize
	// DropZeroConnectionID: connection id 0 in a Welcome or a packet
	// (§4.3, §5.4).
	DropZeroConnectionID
	// DropUnexpectedHandshake: a valid Hello at a client, or Welcome or
	// Rejected at a server.
	DropUnexpectedHandshake
	// DropServerFull: with Rejected disabled (§13.1), what would get
	// Rejected (§4.4): a Hello to a full or shutting-down server, a
	// validated first packet finding every slot and the queue taken or the
	// game ending, or a waiting client's packet after Shutdown.
	DropServerFull
	// DropDuplicate: a sequence already received (§5.2).
	DropDuplicate
	// DropTooOld: a sequence more than 32 below the highest (§5.2).
	DropTooOld
	// DropFirstSequence: from an address without a connection, a packet
	// numbered 0 or above 64, which cannot be a connection's first (§5.2):
	// late packets of a closed connection never reopen it (§12).
	DropFirstSequence
	// DropTruncatedMessageHeader: 1 to 3 bytes after the last whole
	// message (§5.3).
	DropTruncatedMessageHeader
	// DropMessageOverrun: a message size past the datagram's end (§5.3).
	DropMessageOverrun
	// DropShortPacket: a connected packet shorter than 16 bytes (§5.4).
	DropShortPacket
	// DropHelloOnConnection: a Hello from the address of an open
	// connection or a waiting client, which §3 makes a connected packet, 6
	// bytes where one has at least 16 (§5.4): most often a client
	// restarted on its old port, heard once the old connection times out
	// (§13.3).
	DropHelloOnConnection
	// DropUnknownConnection: a connectionId of no open connection (§5.4);
	// from an address without one, an id no Welcome to it carried in the
	// last 5 to 10 s (§4.2, §12).
	DropUnknownConnection
	// DropWrongAddress: the id's connection has another address (§5.4).
	DropWrongAddress
	// DropWrongConnection: at a client, another connectionId than its
	// Welcome's (§5.4).
	DropWrongConnection
	// DropClosed: a datagram to a Client whose connection ended (after its
	// Disconnect, §7.3, among others), or to a Server after Close.
	DropClosed
	// DropClosedConnection: from an address without a connection, the id
	// of one of its connections closed in the last 10 s, which a late
	// packet must not reopen (§7.3).
	DropClosedConnection

	// DropUnknownMessage: a message type this side does not receive (§6).
	DropUnknownMessage
	// DropPayloadSize: a payload not the size its type requires (§7, §8).
	DropPayloadSize
	// DropReservedActions: an Input with reserved action bits 5 to 7 set
	// (§7.1), which the library's decoder refuses.
	DropReservedActions
	// DropStaleInput: an inputSequence not above the last accepted (§7.1).
	DropStaleInput
	// DropZeroNetworkID: network id 0 (§7.4, §8.1, §8.2, §8.3).
	DropZeroNetworkID
	// DropTooManyStates: a Snapshot entityCount over 47 (§8.1).
	DropTooManyStates
	// DropDuplicateNetworkID: a network id twice in a Snapshot (§8.1).
	DropDuplicateNetworkID
	// DropKnownEntity: a CreateEntity for an existing id (§8.2), or for an
	// id destroyed at a later tick than the creation.
	DropKnownEntity
	// DropEntityLimit: a CreateEntity past MaxEntities (§12).
	DropEntityLimit
	// DropDestroyReason: a DestroyEntity reason over 4 (§8.3).
	DropDestroyReason
	// DropUnmatchedPong: a Pong matching no Ping sent (§8.4).
	DropUnmatchedPong

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

// dropRule is what a drop reason is: its Go name, its stable key, the
// rule broken and where the spec states it, what it discards, and the
// error of package rtype that stands for it, if any.
type dropRule struct {
	name, key     string
	rule, section string
	scope         dropScope
	err           error
}

// dropRules is every reason's rule, the one place that says them.
var dropRules = [numDropReasons]dropRule{
	DropTooLarge:               {"TooLarge", "datagram-too-large", "datagram larger than 548 bytes", "§2.2", wholeDatagram, rtype.ErrDatagramTooLarge},
	DropShortHandshake:         {"ShortHandshake", "short-handshake", "handshake datagram shorter than 6 bytes", "§4.1", wholeDatagram, rtype.ErrShortHandshake},
	DropBadMagic:               {"BadMagic", "bad-magic", "handshake magic is not 0x52545950", "§4.1", wholeDatagram, rtype.ErrBadMagic},
	DropBadVersion:             {"BadVersion", "bad-version", "handshake version is not 1", "§4.1", wholeDatagram, rtype.ErrBadVersion},
	DropBadHandshakeType:       {"BadHandshakeType", "bad-handshake-type", "handshake type is not 1, 2 or 3", "§4.1", wholeDatagram, rtype.ErrBadHandshakeType},
	DropHandshakeSize:          {"HandshakeSize", "handshake-size", "handshake datagram not the size of its type", "§4.1, §4.3, §4.4", wholeDatagram, rtype.ErrHandshakeSize},
	DropZeroConnectionID:       {"ZeroConnectionID", "zero-connection-id", "connection id 0 in a Welcome or a packet", "§4.3, §5.4", wholeDatagram, rtype.ErrZeroConnectionID},
	DropUnexpectedHandshake:    {"UnexpectedHandshake", "unexpected-handshake", "a Hello at a client, a Welcome or Rejected at a server", "§4", wholeDatagram, nil},
	DropNotFromServer:          {"NotFromServer", "not-from-server", "at a client, not from the server's address", "§3", wholeDatagram, nil},
	DropClosed:                 {"Closed", "closed", "to a client whose connection ended, as after its Disconnect, or a closed server", "§7.3", wholeDatagram, nil},
	DropShortPacket:            {"ShortPacket", "short-packet", "packet shorter than 16 bytes", "§5.4", wholeDatagram, rtype.ErrShortPacket},
	DropHelloOnConnection:      {"HelloOnConnection", "hello-on-connection", "a Hello from the address of an open connection or a waiting client, a packet shorter than 16 bytes", "§3, §5.4", wholeDatagram, nil},
	DropUnknownConnection:      {"UnknownConnection", "unknown-connection", "connection id of no open connection, or of no recent Welcome to the address", "§4.2, §5.4", wholeDatagram, nil},
	DropWrongAddress:           {"WrongAddress", "wrong-address", "connection id of a connection with another address", "§5.4", wholeDatagram, nil},
	DropWrongConnection:        {"WrongConnection", "connection-id-differs", "connection id not one a Welcome gave the client, or not the one it took", "§5.4", wholeDatagram, nil},
	DropDuplicate:              {"Duplicate", "duplicate-sequence", "sequence is a duplicate", "§5.2", wholeDatagram, nil},
	DropTooOld:                 {"TooOld", "sequence-too-old", "sequence more than 32 below the highest received", "§5.2", wholeDatagram, nil},
	DropFirstSequence:          {"FirstSequence", "first-sequence", "a first packet numbered 0 or above 64", "§5.2, §12", wholeDatagram, nil},
	DropTruncatedMessageHeader: {"TruncatedMessageHeader", "truncated-message-header", "1 to 3 bytes after the last whole message", "§5.3", wholeDatagram, rtype.ErrTruncatedMessageHeader},
	DropMessageOverrun:         {"MessageOverrun", "message-overrun", "message size larger than the bytes left", "§5.3", wholeDatagram, rtype.ErrMessageOverrun},
	DropServerFull:             {"ServerFull", "server-full", "what would get Rejected, with Rejected disabled", "§4.4, §13.1", wholeDatagram, nil},
	DropClosedConnection:       {"ClosedConnection", "closed-connection", "connection id of the address's connection closed in the last 10 s", "§7.3, §12", wholeDatagram, nil},
	DropUnknownMessage:         {"UnknownMessage", "unknown-message", "message type this side does not receive", "§6", oneMessage, nil},
	DropPayloadSize:            {"PayloadSize", "payload-size", "payload not the size its type requires", "§7, §8, §12", oneMessage, rtype.ErrPayloadSize},
	DropReservedActions:        {"ReservedActions", "reserved-actions", "reserved Input action bits 5 to 7 set, which the library's decoder refuses (the rule binds the sender)", "§7.1", oneMessage, rtype.ErrReservedActions},
	DropStaleInput:             {"StaleInput", "stale-input", "inputSequence not above the last accepted", "§7.1", oneMessage, nil},
	DropZeroNetworkID:          {"ZeroNetworkID", "zero-network-id", "network id 0", "§7.4, §8.1, §8.2, §8.3", oneMessage, rtype.ErrZeroNetworkID},
	DropTooManyStates:          {"TooManyStates", "too-many-states", "Snapshot entityCount greater than 47", "§8.1", oneMessage, rtype.ErrTooManyStates},
	DropDuplicateNetworkID:     {"DuplicateNetworkID", "duplicate-network-id", "same network id twice in a Snapshot", "§8.1", oneMessage, rtype.ErrDuplicateNetworkID},
	DropKnownEntity:            {"KnownEntity", "known-entity", "CreateEntity for an id that exists, or was destroyed later", "§8.2", oneMessage, nil},
	DropEntityLimit:            {"EntityLimit", "entity-limit", "CreateEntity past the client's entity bound", "§12", oneMessage, nil},
	DropDestroyReason:          {"DestroyReason", "destroy-reason", "DestroyEntity reason greater than 4", "§8.3", oneMessage, rtype.ErrDestroyReason},
	DropUnmatchedPong:          {"UnmatchedPong", "unmatched-pong", "Pong matching no Ping sent", "§8.4", oneMessage, nil},
}

// other is the rule of a reason out of range.
var other = dropRule{key: "other", rule: "an error no other reason names"}

// rule returns r's rule, other when r is out of range.
func (r DropReason) rule() *dropRule {
	if r < numDropReasons {
		return &dropRules[r]
	}
	return &other
}

// Key returns the reason's stable name in kebab-case, for traces,
// metrics and rtypedump. A reason out of range is "other".
func (r DropReason) Key() string { return r.rule().key }

// String names the reason.
func (r DropReason) String() string {
	if r < numDropReasons {
		return dropRules[r].name
	}
	return "DropReason(" + strconv.Itoa(int(r)) + ")"
}

// Rule states the rule broken, in few words.
func (r DropReason) Rule() string { return r.rule().rule }

// Section returns where the spec states the reason's rule ("§5.2").
func (r DropReason) Section() string { return r.rule().section }

// Err returns the error of package rtype's decoders that stands for r,
// nil when r is a receiver's decision no decoder makes.
func (r DropReason) Err() error { return r.rule().err }

// Datagram reports whether r drops a whole datagram, unanswered (§12),
// rather than one message of a packet otherwise processed (§6).
func (r DropReason) Datagram() bool {
	return r < numDropReasons && dropRules[r].scope == wholeDatagram
}

// DropReasons yields every reason, in the order of the spec.
func DropReasons() iter.Seq[DropReason] {
	return func(yield func(DropReason) bool) {
		for r := range numDropReasons {
			if !yield(r) {
				return
			}
		}
	}
}

// DropReasonOf returns the reason err stands for, an error of package
// rtype's decoders, wrapped or not. ok is false for any other error.
func DropReasonOf(err error) (r DropReason, ok bool) {
	for i := range dropRules {
		if e := dropRules[i].err; e != nil && errors.Is(err, e) {
			return DropReason(i), true
		}
	}
	return numDropReasons, false
}

// dropOf is the reason for err, an error a decoder returned as it is;
// fallback when it names none. It compares, without unwrapping: a flood
// of bad datagrams pays a few comparisons each.
func dropOf(err error, fallback DropReason) DropReason {
	for i := range dropRules {
		if dropRules[i].err == err && err != nil {
			return DropReason(i)
		}
	}
	return fallback
}
