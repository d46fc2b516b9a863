package host

import (
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// Defaults of [Config].
const (
	// DefaultBatch is how many datagrams one system call moves.
	DefaultBatch = 64
	// DefaultReadsPerTick bounds the batches a match reads per tick:
	// 8 × 64 datagrams is over 100 times what four players send in one.
	DefaultReadsPerTick = 8
	// MaxMatches bounds a host: as many ports as a port range holds.
	MaxMatches = 1 << 15
	// DefaultShutdownGrace is how long matches run on once Run's context
	// is done, for players to acknowledge the game's end (§8.3).
	DefaultShutdownGrace = 500 * time.Millisecond
)

// Match is one match's game, as [Config.New] returns it.
type Match struct {
	// Session configures the match's session server. The host installs
	// nothing in it: its metrics are the server's own counters.
	Session session.ServerConfig
	// Tick is the game's tick, run before the session server's Tick sends
	// what changed; nil runs none.
	Tick func(s *session.Server, now time.Time)
	// Hooks, if not nil, see and may drop the match's datagrams, as
	// [session.RunOptions] Hooks do. They run on the match's loop.
	Hooks *session.Hooks
}

// Config tunes a Host; 0 means the default, as in package session.
type Config struct {
	// Addr is the first match's UDP address, such as ":4242" (§1); match i
	// listens on its port + i. Port 0 picks a free run of ports.
	Addr string
	// Matches is the number of matches, 1 to MaxMatches; 0 means 1, or
	// len(Conns).
	Matches int
	// Conns, when not empty, are the matches' sockets, opened by the
	// caller: match i on Conns[i], at the address its LocalAddr method
	// tells, such as a *net.UDPConn's or an in-memory network's. Addr and
	// Listen are then unset and Matches 0 or len(Conns), else Listen
	// returns ErrConfig. The host owns them from Listen on: Run or Close
	// closes them, and Listen does on an error. Each is read as Listen's
	// sockets are (see Listen below). A host of one match on a socket of
	// its own is Conns of one.
	Conns []session.PacketConn
	// New returns match i's game, listening on addr, for i from 0 to
	// Matches−1, called once each by Listen. It is required.
	New func(i int, addr netip.AddrPort) Match
	// Loops is the number of tick loops; 0 means runtime.GOMAXPROCS(0),
	// and never more than Matches.
	Loops int
	// Interval is the tick time; 0 means 1/60 s (§10).
	Interval time.Duration
	// ShutdownGrace is how long matches keep running once Run's context
	// is done, for the game's end to reach the players (§8.3): 0 means
	// 500 ms; [session.Off] skips it: the matches close at once, their
	// games ticking a last time to read the departures.
	ShutdownGrace time.Duration
	// Batch is how many datagrams one system call moves; 0 means
	// DefaultBatch.
	Batch int
	// ReadsPerTick bounds the batches read from a match's socket per tick;
	// 0 means DefaultReadsPerTick.
	ReadsPerTick int
	// Listen, when not nil, opens each match's socket instead of a UDP
	// socket of the system: match i's at Addr's port + i, Addr then an
	// IP:port (port 0: a free one for match 0, which the PacketConn tells
	// by a LocalAddr method). An in-memory network's, such as
	// rtypetest.Network's, inside a testing/synctest bubble runs the host
	// in virtual time: the same loop, matches and sessions as on UDP, but
	// not the same socket. A goroutine of the host reads such a
	// PacketConn, one datagram a call, into a pool of 256 buffers,
	// whatever Batch is (a datagram arriving to a full pool is dropped, as
	// by a full socket buffer); the loop takes at most Batch datagrams
	// ReadsPerTick times a tick from it, as on UDP, and writes them out
	// one a call.
	Listen func(addr netip.AddrPort) (session.PacketConn, error)
	// Log receives the host's own records: listening, a match that failed;
	// nil discards them.
	Log *slog.Logger
}

// check returns ErrConfig for a Config Listen cannot run.
func (c Config) check() error {
	switch {
	case c.New == nil:
		return fmt.Errorf("%w: New missing", ErrConfig)
	case len(c.Conns) > 0 && (c.Addr != "" || c.Listen != nil):
		return fmt.Errorf("%w: Conns with Addr %q or Listen set", ErrConfig, c.Addr)
	case slices.Contains(c.Conns, nil):
		return fmt.Errorf("%w: a nil in Conns", ErrConfig)
	case len(c.Conns) > 0 && c.Matches != 0 && c.Matches != len(c.Conns):
		return fmt.Errorf("%w: %d matches on %d Conns", ErrConfig, c.Matches, len(c.Conns))
	case c.Matches < 0 || c.Matches > MaxMatches || len(c.Conns) > MaxMatches:
		return fmt.Errorf("%w: %d matches, 1 to %d", ErrConfig, max(c.Matches, len(c.Conns)), MaxMatches)
	}
	return nil
}

func (c Config) withDefaults(cores int) Config {
	if c.Matches == 0 {
		c.Matches = max(len(c.Conns), 1)
	}
	if c.Loops <= 0 {
		c.Loops = cores
	}
	c.Loops = min(c.Loops, c.Matches)
	if c.Interval <= 0 {
		c.Interval = session.DefaultInterval
	}
	if c.ShutdownGrace == 0 {
		c.ShutdownGrace = DefaultShutdownGrace
	}
	if c.Batch <= 0 {
		c.Batch = DefaultBatch
	}
	if c.ReadsPerTick <= 0 {
		c.ReadsPerTick = DefaultReadsPerTick
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c
}
