package rtypefuzz

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// Pacing of a run against a server: a stray datagram from an address
// without a connection every strayEvery (half-way between two valid
// ones), a burst of maxBurst at most to make up for a late tick.
const (
	strayEvery  = 64
	silentAfter = 2 * time.Second // a session answered nothing: it is closed
	maxBurst    = 32
	retryAfter  = 100 * time.Millisecond
)

// FuzzServer fuzzes the server at target until a finding, ctx is done or
// o.Duration passed. It returns ErrUnreachable when the server does not
// answer a Hello from the start.
func FuzzServer(ctx context.Context, target netip.AddrPort, o Options) (*Report, error) {
	return fuzzServer(ctx, target, nil, o)
}

func fuzzServer(ctx context.Context, target netip.AddrPort, ended <-chan error, o Options) (*Report, error) {
	e := newEngine(o.withDefaults(), Server)
	r := &serverRole{e: e, target: target, end: ended, bind: bindFor(target, e.o.Network)}
	e.role = r
	r.prober = &prober{nw: e.o.Network, bind: r.bind, target: target}
	if ok, _ := r.prober.alive(); !ok || r.prober.health == nil {
		r.close()
		return nil, ErrUnreachable
	}
	rep, err := e.run(ctx)
	if err != nil {
		return nil, err
	}
	rep.NoPong = r.prober.pongless
	return rep, nil
}

// FuzzServerStart starts the server with start and fuzzes it as
// FuzzServer does; after a finding it stops it and shrinks the finding,
// restarting a fresh server for each replay.
func FuzzServerStart(ctx context.Context, start Start, o Options) (*Report, error) {
	o = o.withDefaults()
	addr, ended, stop, err := start(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	rep, err := fuzzServer(ctx, addr, ended, o)
	stop()
	if err != nil || rep.Finding == nil {
		return rep, err
	}
	shrinkWith(ctx, rep.Finding, freshServer(o, start, rep.Finding), Shrink)
	return rep, nil
}

// bindFor is the address the fuzzer's sockets bind: port 0 of the target's
// own address on an in-memory network or loopback, of any address
// otherwise.
func bindFor(target netip.AddrPort, nw conformance.Network) netip.AddrPort {
	if nw != conformance.UDP || target.Addr().IsLoopback() {
		return netip.AddrPortFrom(target.Addr(), 0)
	}
	return netip.AddrPort{}
}
