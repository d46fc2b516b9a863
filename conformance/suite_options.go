package conformance

import (
	"io"
	"regexp"
	"time"
)

// DefaultTimeout is a case's own time when Options.Timeout is 0. Cases that
// must wait longer by nature (the 10 s of §4.2, §13.3's timeout) get what
// they need.
const DefaultTimeout = 5 * time.Second

// Options select and tune a run. The zero value runs every case.
type Options struct {
	// Run, when not nil, runs only the cases whose id it matches; Skip,
	// when not nil, leaves out those it matches.
	Run, Skip *regexp.Regexp
	// Timeout bounds each case; 0 means DefaultTimeout. A case that by
	// nature waits longer gets its own need.
	Timeout time.Duration
	// Strict makes SHOULD and GAME failures fail the run, and TestServer's
	// and TestClient's subtests.
	Strict bool
	// Slow selects the cases that wait for the game's own clocks, such
	// as the 30 seconds after which §10 starts a round with one player
	// (10/10): without it they are left out, as Skip leaves a case out,
	// not run and not reported.
	Slow bool
	// Record keeps, for each failed case, the datagrams it exchanged.
	Record bool
	// Listen is the scripted server's address in client mode; empty means
	// 127.0.0.1:0, a free loopback port.
	Listen string
	// Network, when not nil, is where the suite opens its sockets instead
	// of the system's UDP: an in-memory network (see [Network] and
	// [NetworkOf]). The server mode's target and Listen are then IP:port
	// literals of that network, no name resolved and no address changed;
	// server mode's sockets bind port 0 of the target's own address, as
	// they do on loopback, and client mode's scripted server listens on
	// Listen, by default port 0 of 127.0.0.1. Inside a testing/synctest
	// bubble, with the implementation under test started in the bubble on
	// the same network, the run takes virtual time.
	Network Network
	// Progress, when not nil, is called with each result as it comes,
	// in report order.
	Progress func(Result)
	// Climbed, when not nil, is called in server mode with the ladder of
	// capabilities once its probe is done, before the first case; the
	// rungs count no case not run yet.
	Climbed func([]Rung)
	// Log receives client mode's prompts when no command starts the
	// client; nil means nowhere.
	Log io.Writer
}

// selected reports whether the options select case c.
func (o *Options) selected(c Case) bool {
	return (o.Run == nil || o.Run.MatchString(c.ID)) && (o.Skip == nil || !o.Skip.MatchString(c.ID)) && (!c.slow || o.Slow)
}

// limit returns the time case c may run.
func (o *Options) limit(c Case) time.Duration {
	d := o.Timeout
	if d <= 0 {
		d = DefaultTimeout
	}
	return max(d, c.needs)
}
