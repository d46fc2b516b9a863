package rtypefuzz

import (
	"context"
	"net/netip"

	"github.com/rtypeproto/rtype"
)

// ClientStart starts the client under test against the server at server,
// the fuzzer's own address, and returns a channel that receives how the
// client ended, and stop, which ends it and returns once it has ended. The
// end is nil for an exit with status 0 (a Go client's function returning
// nil), an error for a non-zero status, a signal or a crash; nothing need
// be sent for an end stop asked for. The fuzzer calls it for each session,
// and again for each replay while it shrinks a finding.
type ClientStart func(ctx context.Context, server netip.AddrPort) (ended <-chan error, stop func(), err error)

// FuzzClient fuzzes the client that start starts, playing its server,
// until a finding, ctx is done or o.Duration passed; after a finding it
// shrinks it, replaying each candidate against a fresh client. It returns
// ErrUnreachable when a client sends nothing within StartWait of its
// start.
//
// Each session listens on o.Listen and starts a client against that
// address. The client's first Hello (§4.2) opens the session: the fuzzer
// may first send a few mutated handshake datagrams, which a client must
// ignore (§4.3, §4.4), then a Welcome with a connection id drawn from the
// seed, and from then on packets of the session (§5.1: its own sequence,
// the client's acknowledged) at o.Rate: mutations of every layer, each
// edge of the catalogue first (the edge pass), and every 16th a valid packet (a Snapshot of the entities it created, the
// Pongs it owes, §8) so that the session lives on. After 2000 datagrams,
// or once the client acknowledges no new packet (it took a mutated
// sequence no later packet passes, §5.2), the client is stopped and a
// fresh one starts the next session.
//
// The findings are: the client sent a datagram over 548 bytes (Oversize),
// one a server drops, or a packet with another connection id than its
// Welcome's (Invalid, §4.3); connected, it sent nothing for LiveWait
// (StoppedAnswering, §7.1); it ended (Exited, §12). The fuzzer never sends
// a valid Rejected and is never silent, so a client has no reason of the
// protocol to end: any end the fuzzer did not ask for is a finding,
// whatever its status, but two, which start a new session:
//
//   - status 0 (nil) once the client sent Disconnect with reason 1: its
//     player quit (§7.3), as a client with a play time of its own does;
//   - any end 2 s or more after its first Hello with no Welcome sent: it
//     gave up waiting (§4.2), which only a replay left without the
//     Welcome makes it do.
//
// A non-zero status or a signal is a crash; status 0 without a Disconnect
// is a client that left a live session on a datagram it had to drop or
// process (§12).
func FuzzClient(ctx context.Context, start ClientStart, o Options) (*Report, error) {
	e := newEngine(o.withDefaults(), Client)
	e.role = &clientRole{e: e, start: start}
	rep, err := e.run(ctx)
	if err != nil || rep.Finding == nil {
		return rep, err
	}
	shrinkWith(ctx, rep.Finding, freshClient(e.o, start, rep.Finding.Oracle), shrinkKeepingWelcome)
	return rep, nil
}

// isRejected reports whether b is a valid Rejected (§4.4).
func isRejected(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeRejected
}
