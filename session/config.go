package session

import (
	"log/slog"
	"net/netip"
	"time"
)

// SendFunc hands one datagram, at most 548 bytes (§2.2), to the network;
// datagram is valid only during the call. It runs inside the method that
// produced it (Update, SendInput, Flush, Close, Receive, Tick, Shutdown …)
// and must not call the same Client or Server, which is not reentrant (it
// would corrupt the packet being built): write to a socket or a queue.
type SendFunc func(to netip.AddrPort, datagram []byte)

// Defaults of the zero fields of [ClientConfig], [ServerConfig] and
// [RunOptions], and DefaultQueryRetry, a value for QueryRetry, which is off
// when 0.
const (
	// DefaultGiveUp is how long a client keeps sending Hello (§4.2).
	DefaultGiveUp = 10 * time.Second
	// DefaultTimeout is how long a silent peer keeps its connection (§13.3).
	DefaultTimeout = 10 * time.Second
	// DefaultQueryRetry is a sensible QueryRetry for a client of a version
	// 1 server that opts in to asking again about an id whose QueryEntity
	// or answer was lost (§7.4, §13.4).
	DefaultQueryRetry = 500 * time.Millisecond
	// DefaultMaxEntities bounds a client's entity table.
	DefaultMaxEntities = 4096
	// DefaultEventQueue bounds the events waiting to be read.
	DefaultEventQueue = 4096
	// DefaultMaxPlayers is the number of player slots of §10.
	DefaultMaxPlayers = 4
	// DefaultSnapshotInterval is the number of ticks between Snapshots
	// (§8.1, §10).
	DefaultSnapshotInterval = 3
	// DefaultSendBudget is how many unacknowledged packets a connection is
	// sent before the world stops (§12); conforming clients ack every one.
	DefaultSendBudget = 64
	// DefaultInterval is the client binding's frame time and a host's
	// tick (§10: 60/s).
	DefaultInterval = time.Second / ticksPerSecond
)

// Fixed timings: the spec's, or too deep for a game to want to change.
const (
	// helloInterval is the time between two Hellos (§4.2: every second).
	helloInterval = time.Second
	// pingInterval is the time between two Pings (§7.2).
	pingInterval = time.Second
	// destroyedMemory is how long a destroyed id is remembered, so that a
	// late Snapshot does not make the client query it (§8.3), and how long
	// a QueryEntity is remembered once no Snapshot lists its id (§7.4).
	destroyedMemory = 2 * time.Second
)

// Off turns off a knob of [ClientConfig], [ServerConfig] or host.Config
// that has an off, where 0 means its default (see Configuration in the
// package doc). Any negative value is Off.
const Off = -1

// Feature is a behaviour on by default, a §13 improvement of a [Server] or
// [ViewConfig].Predict: 0 (the zero value) is on, [Off] turns it off, as
// version 1 behaves.
type Feature int8

// on reports whether f is on: any value but a negative one.
func (f Feature) on() bool { return f >= 0 }

// ClientConfig holds the protocol and game policy of a [Client]. A field's 0
// means its default; [Off] turns off a field that has an off, and is the
// default for a bound such as MaxEntities.
type ClientConfig struct {
	// GiveUp is how long after the first Hello, sent every second (§4.2),
	// the client stops trying and reports [EventTimedOut]; 0 means 10 s
	// (§4.2), [Off] never.
	GiveUp time.Duration
	// ServerTimeout closes a connected client that has received no valid
	// packet for that long, with [EventTimedOut]; 0 means 10 s, [Off]
	// never.
	ServerTimeout time.Duration
	// QueryRetry, when positive, trades §7.4's SHOULD, ask once, for repair
	// under loss: a Snapshot still listing an id whose QueryEntity got no
	// answer for QueryRetry makes the client ask again, then after twice
	// as long, and so on, 4 asks per id at most ([DefaultQueryRetry] is
	// sensible). Only a version 1 server needs it (§13.4: it never resends
	// a lost CreateEntity). 0 (or [Off]) is off: the client asks once per
	// id, as §7.4 says it SHOULD, and again only after no Snapshot listed
	// the id for 2 s. A client whose table holds MaxEntities entities asks
	// nothing.
	QueryRetry time.Duration
	// MaxEntities bounds the entity table, dropping CreateEntity past it;
	// 0 means 4096.
	MaxEntities int
	// EventQueue bounds the events waiting in [Client.Events]; 0 means 4096.
	// Past it the oldest EventSnapshot goes first, as the entity table holds
	// what it reported (§8.1), else the oldest event; each loss counts in
	// [Counters].EventsLost.
	EventQueue int
	// ExpireUnlisted, when positive, removes with [EventEntityExpired] a
	// known entity no Snapshot listed for that long: the ghost of a
	// DestroyEntity lost and never resent (§13.4). Time counts in server
	// ticks (60 per second, §10) from the Snapshots' serverTick, and a gap
	// between two rounds counts at most half ExpireUnlisted, so a stalled
	// link expires nothing, during the stall or just after. A round (the
	// Snapshots sharing a serverTick, §8.1) is judged once a newer one
	// begins; an entity's CreateEntity counts as its first listing. Large
	// worlds spread a round over several packets (§8.1) and loss skips
	// rounds: 1 s, 20 rounds, is sensible. An expired id is remembered like
	// a destroyed one, for 2 s, lest a late Snapshot query it (§8.3); a newer
	// Snapshot listing it brings it back through QueryEntity (§7.4). 0 (or
	// [Off]) is off: entities stay until destroyed, as §1 says a client
	// MUST NOT assume an unstated disappearance; expiry reads Snapshots,
	// which carry each tick's replicated entities (§8.1), as stating it.
	ExpireUnlisted time.Duration
	// Tracer, when not nil, receives the client's events (see [Tracer]).
	Tracer Tracer
	// View, when not nil, is fed every Snapshot, CreateEntity and
	// DestroyEntity the client accepts, and every expiry, with its arrival
	// time: the world as a game draws it each frame (see [View]).
	View *View
}

// ServerConfig holds the protocol and game policy of a [Server], by the rule
// of [ClientConfig]; the zero value gives the defaults with every §13
// improvement on.
type ServerConfig struct {
	// MaxPlayers bounds the open connections (§10); 0 means 4, over 255
	// means 255. A valid Hello gets Rejected (§4.4) while MaxPlayers are
	// open; a welcomed client whose first packet finds no slot waits in a
	// queue of MaxPlayers entries ([Server.NumWaiting]), or gets Rejected
	// if it is full too; see Admission in the package doc (§12).
	MaxPlayers int
	// InactivityTimeout closes a connection that sent no valid packet for
	// that long, as if it had sent Disconnect (§13.3), and forgets a silent
	// waiting client; 0 means 10 s, [Off] never closes a connection (the
	// v1 behaviour), though waiting clients are still forgotten after 10 s.
	InactivityTimeout time.Duration
	// SnapshotInterval is the number of [Server.Tick] calls between two
	// Snapshots (§8.1); 0 means 3, [Off] never.
	SnapshotInterval int
	// EventQueue bounds the EventInput and EventQueryEntity events waiting
	// in [Server.Events]; 0 means 4096. Past it a new one is lost, counted in
	// [Counters].EventsLost, so an Input flood cannot push out joins and
	// leaves: they have 2×MaxPlayers more slots and are never lost, a new
	// player waiting, as for a slot, for a Tick with room for its join and
	// every leave.
	EventQueue int
	// ReliableEvents resends to each player the CreateEntity and
	// DestroyEntity its client lacks until the acks show they arrived
	// (§13.4). [Off] sends each once, as version 1 does: a lost creation is
	// then repaired only by QueryEntity, a lost destruction never, and no
	// DestroyEntity gets its redundant second copy.
	ReliableEvents Feature
	// Rejected answers Rejected (§4.4) to a Hello to a full server, and to
	// the first packet of a validated client that finds every slot and the
	// waiting queue taken, or the game ending (§13.1). [Off] drops them
	// silently, as version 1 does.
	Rejected Feature
	// ValidationKey keys the HMAC-SHA256 that derives a Welcome's connection
	// id from the client's address and a 5-second time window (§4.2, §12).
	// nil or empty means 32 random bytes from crypto/rand, drawn by NewServer
	// and kept out of Config; set it only for deterministic tests: whoever
	// knows it can forge connections from any address.
	ValidationKey []byte
	// SendBudget is how many packets in a row a connection may leave
	// unacknowledged before it gets no Snapshot, CreateEntity or
	// DestroyEntity (§12: a spoofed address never acks), only one empty
	// packet per packet it sends and the answers to its Ping and
	// QueryEntity, until an ack covers one of the last SendBudget. 0 means
	// 64, [Off] never (v1). Conforming clients ack every packet (§5.1);
	// keep it above the packets sent per round trip.
	SendBudget int
	// Tracer, when not nil, receives the server's events, of every
	// address (see [Tracer]).
	Tracer Tracer
	// Log, when not nil, receives the records an operator reads: each
	// player joined and left, with its address and why it left, and the
	// datagrams and messages dropped by each rule (§12), summed over
	// DropLogEvery.
	Log *slog.Logger
}

// RunOptions tunes the client's UDP binding ([RunClient], [RunClientConn]),
// not the protocol: how often it drives the Client and what sees the
// datagrams on the way; 0 means the default. A server runs on package
// host, whose Config holds the same for its matches.
type RunOptions struct {
	// Hooks, if not nil, see and may drop every datagram the binding
	// passes to Receive or takes from the SendFunc (§3).
	Hooks *Hooks
	// Interval is the time between two calls of the tick or frame function;
	// 0 means 1/60 s (§10), as does a negative value: a loop has no off.
	Interval time.Duration
}

// maxPlayers bounds MaxPlayers: a slot is a uint8 in events.
const maxPlayers = 255

// orDefault is the rule for a field with an off: 0 is def, negative kept.
func orDefault[T time.Duration | int](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// positiveOr is the rule for a field without an off: 0 and negative are def.
func positiveOr[T time.Duration | int](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

func (c ClientConfig) withDefaults() ClientConfig {
	c.GiveUp = orDefault(c.GiveUp, DefaultGiveUp)
	c.ServerTimeout = orDefault(c.ServerTimeout, DefaultTimeout)
	c.MaxEntities = positiveOr(c.MaxEntities, DefaultMaxEntities)
	c.EventQueue = positiveOr(c.EventQueue, DefaultEventQueue)
	return c
}

func (c ServerConfig) withDefaults() ServerConfig {
	c.MaxPlayers = min(positiveOr(c.MaxPlayers, DefaultMaxPlayers), maxPlayers)
	c.InactivityTimeout = orDefault(c.InactivityTimeout, DefaultTimeout)
	c.SnapshotInterval = orDefault(c.SnapshotInterval, DefaultSnapshotInterval)
	c.EventQueue = positiveOr(c.EventQueue, DefaultEventQueue)
	c.SendBudget = orDefault(c.SendBudget, DefaultSendBudget)
	return c
}

func (o RunOptions) withDefaults() RunOptions {
	o.Interval = positiveOr(o.Interval, DefaultInterval)
	return o
}
