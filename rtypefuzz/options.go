package rtypefuzz

import (
	"context"
	"errors"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// ErrUnreachable: the implementation did not answer from the start: no
// Welcome to a Hello (§4.2), or its process did not start.
var ErrUnreachable = errors.New("rtypefuzz: the implementation does not answer")

// Start starts the implementation under test and returns its address, a
// channel that receives how it ended (nil for a stop asked by stop), and
// stop. The fuzzer calls it again after a finding, to replay the session
// against a fresh implementation while it shrinks it.
//
// stop must end the implementation and return only once it has ended:
// its goroutines returned, its socket closed, so that the next Start can
// listen on the same address. Inside a testing/synctest bubble, a stop
// that only cancels a context (stop = cancel) leaves the implementation's
// goroutines running when the bubble's function returns, and the bubble
// panics ("blocked goroutines remain"); wait for them:
//
//	ctx, cancel := context.WithCancel(ctx)
//	done := make(chan struct{})
//	go func() { defer close(done); serve(ctx, conn) }()
//	stop := func() { cancel(); <-done }
type Start func(ctx context.Context) (addr netip.AddrPort, ended <-chan error, stop func(), err error)

// Options tune a run; 0 means the default.
type Options struct {
	// Network is where the fuzzer's sockets are opened; nil is the
	// system's UDP. An in-memory network (rtypetest) inside a
	// testing/synctest bubble runs in virtual time.
	Network conformance.Network
	// Seed draws the mutations. The n-th datagram a run sends (counted
	// as Trace counts them) is a function of the seed, n and
	// what the session learnt from the target: its kind (a mutation, the
	// session's valid packet, a stray one), the mutation's choices (its
	// layer and edges, Mutation.What) and its bytes repeat from run to
	// run, but for the values learnt: the connection id of the Welcome
	// (§4.3), the ack and ackBits of the target's packets received (§5.1),
	// the entity ids its CreateEntity messages gave (§8.2), the
	// sequences of a session that opened anew on the target's silence,
	// and, against a client, the sequence the session moves to when the
	// client acknowledges one ahead of it. The target's speed decides
	// when a datagram goes, not which.
	Seed uint64
	// Duration bounds the run; 0 runs until ctx is done or a finding.
	Duration time.Duration
	// Rate is the datagrams sent per second, at most; 0 means 2000.
	// Against a server, a run sends fewer when the server has not yet
	// read what it sent (see Report.Slowed).
	Rate int
	// RSS, when not nil, reads the implementation's resident memory in
	// bytes (RSS of its process, CommandServer.RSS): past MaxRSS (0 means
	// DefaultMaxRSS) it is a finding.
	RSS    func() (uint64, error)
	MaxRSS uint64
	// Progress, when not nil, is called about once a second.
	Progress func(Progress)
	// Trace, when not nil, sees each datagram the run sends in its
	// sessions, but their handshakes and parting Disconnects: its number
	// n (from 1; a stray one that drew a valid Hello is not sent, and
	// its number skipped), what it is (a mutation's What; "valid: …" for the
	// session's valid packets; "stray: …" for one from an address
	// without a connection) and its bytes, which it must not keep.
	Trace func(n int, what string, b []byte)
	// Listen is where the fuzzer, playing the server in client mode,
	// listens for the client under test, on Network; port 0 picks a free
	// port for each run of the client. Without a valid IP, such as the
	// zero value, it listens on 127.0.0.1.
	Listen netip.AddrPort
}

// Progress counts what a run did so far.
type Progress struct {
	// Sent counts the datagrams sent, Sessions the sessions opened,
	// Answers the datagrams received.
	Sent, Sessions, Answers int
	Elapsed                 time.Duration
}

// Report is what a run found, and how much it did.
type Report struct {
	Progress
	// Finding is nil when the run ended without one.
	Finding *Finding
	// NoPong is set when the server welcomed fresh Hellos but answered no
	// Ping (§7.2): whether it still answered was then judged by Hellos
	// alone, and a hang that spares the handshake goes unseen.
	NoPong bool
	// Slowed, when not empty, says why the rate of the run's last
	// seconds fell under a tenth of its first seconds': what it waited
	// on (a server's acks of what it read, liveness probes, Welcomes to
	// new sessions, a server that welcomed none; clients started, and
	// their sessions settled).
	Slowed string
}

func (o Options) withDefaults() Options {
	if o.Network == nil {
		o.Network = conformance.UDP
	}
	if o.MaxRSS == 0 {
		o.MaxRSS = DefaultMaxRSS
	}
	if o.Rate <= 0 {
		o.Rate = 2000
	}
	if !o.Listen.Addr().IsValid() {
		o.Listen = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), o.Listen.Port())
	}
	return o
}
