package conformance

import (
	"context"
	"net/netip"
)

// Client starts one client of the implementation under test, connecting to
// the suite's scripted server at server, and returns quit, which makes its
// player quit (a client SHOULD then send Disconnect reason 1, §7.3) and
// returns once the client ended, killing it if it must, and done, closed
// when the client ends by itself (nil if that cannot be known). Client
// mode starts a fresh client for every case.
type Client func(ctx context.Context, server netip.AddrPort) (quit func(), done <-chan struct{}, err error)
