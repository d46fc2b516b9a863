package wiredump

import (
	"errors"

	"github.com/rtypeproto/rtype"
)

// Reasons a receiver drops a datagram that no decoder of package rtype can
// see, since they take state across datagrams, or the capture itself.
var (
	// ErrDuplicateSequence: a packet whose sequence is the highest
	// received or one already seen (§5.2).
	ErrDuplicateSequence = errors.New("duplicate sequence (§5.2)")
	// ErrSequenceTooOld: a packet whose sequence is more than 32 below the
	// highest received (§5.2).
	ErrSequenceTooOld = errors.New("sequence too old (§5.2)")
	// ErrConnectionIDDiffers: a packet between the server and a client
	// whose connectionId is not the one the Welcome to that client carried
	// (§5.4). The server drops it (no open connection has that id bound to
	// the client's address), and so does the client (not its own id).
	ErrConnectionIDDiffers = errors.New("connection id differs from the Welcome (§5.4)")
	// ErrAfterDisconnect: a packet from the server to a client whose
	// Disconnect the server kept, closing the connection at once (§7.3): it
	// was on its way, or the server sent it late; the client has left.
	ErrAfterDisconnect = errors.New("packet after the client's Disconnect (§7.3)")
	// ErrNotWholeDatagram: the capture holds part of the datagram only, cut
	// by its snapshot length or an IP fragment not reassembled.
	ErrNotWholeDatagram = errors.New("not a whole datagram in the capture")
)

// DropOther is the key of an error no [DropReason] names.
const DropOther = "other"

// DropReason is one reason a receiver drops a datagram or a message, under
// a name that stays the same whatever the error's text becomes.
type DropReason struct {
	// Key is the stable name, in kebab-case.
	Key string
	// Err is the sentinel the reason stands for.
	Err error
	// Rule is the rule broken, in few words.
	Rule string
	// Section is where the spec states the rule ("§5.3"), empty when the
	// reason is the capture's and not the protocol's.
	Section string
}

// dropReasons is every reason a decoder of package rtype or a receiver's
// state across datagrams gives, in the order of the spec.
var dropReasons = [...]DropReason{
	{"datagram-too-large", rtype.ErrDatagramTooLarge, "datagram larger than 548 bytes", "§2.2"},
	{"short-handshake", rtype.ErrShortHandshake, "handshake datagram shorter than 6 bytes", "§4.1"},
	{"bad-magic", rtype.ErrBadMagic, "handshake magic is not 0x52545950", "§4.1"},
	{"bad-version", rtype.ErrBadVersion, "handshake version is not 1", "§4.1"},
	{"bad-handshake-type", rtype.ErrBadHandshakeType, "handshake type is not 1, 2 or 3", "§4.1"},
	{"handshake-size", rtype.ErrHandshakeSize, "handshake datagram not the size of its type", "§4.1, §4.3, §4.4"},
	{"zero-connection-id", rtype.ErrZeroConnectionID, "connection id 0 in a Welcome or a packet", "§4.3, §5.4"},
	{"duplicate-sequence", ErrDuplicateSequence, "sequence is a duplicate", "§5.2"},
	{"sequence-too-old", ErrSequenceTooOld, "sequence more than 32 below the highest received", "§5.2"},
	{"truncated-message-header", rtype.ErrTruncatedMessageHeader, "1 to 3 bytes after the last whole message", "§5.3"},
	{"message-overrun", rtype.ErrMessageOverrun, "message size larger than the bytes left", "§5.3"},
	{"short-packet", rtype.ErrShortPacket, "packet shorter than 16 bytes", "§5.4"},
	{"connection-id-differs", ErrConnectionIDDiffers, "connection id not one a Welcome gave the client, or not the one it took", "§5.4"},
	{"payload-size", rtype.ErrPayloadSize, "payload not the size its type requires", "§7, §8, §12"},
	// §7.1 makes the sender keep them 0 and does not list them among what
	// the server drops: dropping the message is the library's policy.
	{"reserved-actions", rtype.ErrReservedActions, "reserved Input action bits 5 to 7 set, which the library's decoder refuses (the rule binds the sender)", "§7.1"},
	{"after-disconnect", ErrAfterDisconnect, "packet to a client after its Disconnect closed the connection", "§7.3"},
	{"zero-network-id", rtype.ErrZeroNetworkID, "network id 0", "§7.4, §8.1, §8.2, §8.3"},
	{"too-many-states", rtype.ErrTooManyStates, "Snapshot entityCount greater than 47", "§8.1"},
	{"duplicate-network-id", rtype.ErrDuplicateNetworkID, "same network id twice in a Snapshot", "§8.1"},
	{"destroy-reason", rtype.ErrDestroyReason, "DestroyEntity reason greater than 4", "§8.3"},
	{"not-whole-datagram", ErrNotWholeDatagram, "the capture holds part of the datagram only", ""},
}

// DropReasons returns every reason [DropKey] names, in the order of the
// spec.
func DropReasons() []DropReason {
	return append([]DropReason(nil), dropReasons[:]...)
}

// DropKey returns the stable name of err, a reason a receiver drops a
// datagram or a message, and [DropOther] for an error no reason names.
func DropKey(err error) string {
	for i := range dropReasons {
		if errors.Is(err, dropReasons[i].Err) {
			return dropReasons[i].Key
		}
	}
	return DropOther
}
