package wiredump

import (
	"errors"

	"github.com/rtypeproto/rtype/session"
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
	// ErrHelloOnConnection: a Hello from a connected client's address,
	// which §3 makes a connected packet too short to be one (§5.4): the
	// client restarted on its old port, and the server drops it until the
	// old connection ends.
	ErrHelloOnConnection = errors.New("a Hello from a connected client's address (§3, §5.4)")
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

// DropReason is one reason a receiver drops a datagram or a message that
// the decoder gives: a reason of the toolkit's one taxonomy
// (session.DropReason), whose key, rule and section it carries, or the
// capture's own, not-whole-datagram.
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

// stateful maps the errors of this package's decoder, which keeps state
// across datagrams, to the taxonomy's reasons.
var stateful = [...]struct {
	err    error
	reason session.DropReason
}{
	{ErrDuplicateSequence, session.DropDuplicate},
	{ErrSequenceTooOld, session.DropTooOld},
	{ErrConnectionIDDiffers, session.DropWrongConnection},
	{ErrHelloOnConnection, session.DropHelloOnConnection},
	{ErrAfterDisconnect, session.DropClosed},
}

// dropReasons is every reason the decoder gives, in the order of the
// taxonomy, then the capture's.
var dropReasons = func() []DropReason {
	var out []DropReason
	for r := range session.DropReasons() {
		if err := reasonErr(r); err != nil {
			out = append(out, DropReason{r.Key(), err, r.Rule(), r.Section()})
		}
	}
	return append(out, DropReason{"not-whole-datagram", ErrNotWholeDatagram, "the capture holds part of the datagram only", ""})
}()

// reasonErr returns the error the decoder gives for r, nil if none.
func reasonErr(r session.DropReason) error {
	for _, s := range stateful {
		if s.reason == r {
			return s.err
		}
	}
	return r.Err()
}

// DropReasons returns every reason [DropKey] names, in the order of the
// spec.
func DropReasons() []DropReason {
	return append([]DropReason(nil), dropReasons...)
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
