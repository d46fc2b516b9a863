package session

import (
	"net/netip"
	"time"
)

// SendFunc hands one datagram to the network. datagram is at most 548 bytes
// (§2.2) and is only valid during the call: the function must copy it if it
// keeps it. It is called from inside the method that produced the datagram
// (Update, SendInput, Flush, Close, Receive, Tick, Shutdown …), so it must
// not call any method of the same Client or Server: neither is reentrant,
// and such a call would corrupt the packet being built. Write to a socket
// or queue the datagram instead, as [RunClient], [RunServer] and the
// in-memory Example do.
type SendFunc func(to netip.AddrPort, datagram []byte)

// Defaults used for the zero fields of [ClientConfig], [ServerConfig] and
// [RunOptions].
const (
	// DefaultGiveUp is how long a client keeps sending Hello (§4.2).
	DefaultGiveUp = 10 * time.Second
	// DefaultTimeout is how long a peer may stay silent before its
	// connection is closed (§13.3).
	DefaultTimeout = 10 * time.Second
	// DefaultQueryRetry is a QueryRetry for a client that opts in to
	// asking again about an id whose QueryEntity or answer was lost (§7.4);
	// the default QueryRetry asks once, as §7.4 says a client SHOULD.
	DefaultQueryRetry = 500 * time.Millisecond
	// DefaultMaxEntities bounds a client's entity table.
	DefaultMaxEntities = 4096
	// DefaultEventQueue bounds the events waiting to be read.
	DefaultEventQueue = 4096
	// DefaultMaxPlayers is the number of player slots of §10.
	DefaultMaxPlayers = 4
	// DefaultSnapshotInterval is the number of ticks between two Snapshots
	// (§8.1, §10: one every 3 ticks).
	DefaultSnapshotInterval = 3
	// DefaultSendBudget is the number of packets a server sends a
	// connection that acknowledges none of them before it stops sending it
	// the world (§12): a conforming client acknowledges with every packet,
	// far sooner.
	DefaultSendBudget = 64
	// DefaultInterval is the frame time of the UDP bindings: 60 client
	// frames or server ticks per second (§10).
	DefaultInterval = time.Second / 60
	// DefaultShutdownGrace is how long [RunServerConn] keeps running, once
	// its context is done, for every player to acknowledge the end of the
	// game (§8.3).
	DefaultShutdownGrace = 500 * time.Millisecond
)

// Fixed timings: the spec's, or too deep inside the protocol for a game to
// have a reason to change them.
const (
	// helloInterval is the time between two Hellos (§4.2: every second).
	helloInterval = time.Second
	// pingInterval is the time between two Pings (§7.2).
	pingInterval = time.Second
	// destroyedMemory is how long a destroyed id is remembered so that a
	// late Snapshot does not make the client query it (§8.3), and how long
	// a QueryEntity is remembered once no Snapshot lists its id (§7.4).
	destroyedMemory = 2 * time.Second
)

// ClientConfig holds the protocol and game policy of a [Client]; how a
// loop drives it is the business of [RunOptions].
//
// One rule gives every field its meaning: 0 means the default. A negative
// value switches the feature off where off has a meaning, as the field
// says; a field that has no off, a bound such as MaxEntities, takes a
// negative value as out of range and uses the default, as for 0.
type ClientConfig struct {
	// GiveUp is how long after the first Hello the client stops trying and
	// reports [EventTimedOut]; 0 means 10 s (§4.2), negative never. Hello
	// is sent every second meanwhile (§4.2).
	GiveUp time.Duration
	// ServerTimeout closes a connected client that has received no valid
	// packet for that long, with [EventTimedOut]; 0 means 10 s, negative
	// never.
	ServerTimeout time.Duration
	// QueryRetry, when positive, is how long the client waits for the
	// CreateEntity that answers a QueryEntity before a Snapshot that still
	// lists the unknown id may make it ask again, which repairs a lost
	// query or answer ([DefaultQueryRetry] is a sensible value). The
	// default, 0, is off, as is negative: the client asks once per id, as
	// §7.4 says a client SHOULD, and asks again only once no Snapshot
	// listed the id for 2 s. Whatever its value, a client whose entity
	// table holds MaxEntities entities asks nothing, since it would drop
	// the answer.
	QueryRetry time.Duration
	// MaxEntities bounds the entity table: a CreateEntity past it is
	// dropped; 0 means 4096.
	MaxEntities int
	// EventQueue bounds the events waiting to be read with
	// [Client.Events]: past it the oldest EventSnapshot is lost first,
	// since the entity table holds what it reported and the next Snapshot
	// reports again (§8.1), and only a queue without one loses its oldest
	// event; each is counted in [Stats].EventsLost; 0 means 4096.
	EventQueue int
	// Hooks, when not nil, see every datagram the client receives and
	// sends, and may drop it (§3).
	Hooks *Hooks
	// ExpireUnlisted, when positive, removes a known entity that no
	// Snapshot listed for that long and reports it with
	// [EventEntityExpired]: it repairs the ghosts a server leaves when a
	// DestroyEntity is lost and never resent (§13.4). The time is counted
	// in server ticks at the 60 per second of §10, from the serverTick of
	// the Snapshots received, not from the clock, and only while they keep
	// arriving: the gap between two rounds counts at most half
	// ExpireUnlisted, so a link that stalls expires nothing, during the
	// stall or just after it. A round of Snapshots, the messages that
	// share a serverTick (§8.1), is judged once a newer one begins; the
	// serverTick of an entity's CreateEntity counts as its first listing.
	// A world of more than 47 entities spreads over several packets per
	// round (§8.1), and under loss an entity that exists may miss a few
	// rounds in a row: give it many Snapshot intervals; 1 s, 20 rounds, is
	// a sensible value. An expired id is remembered like a destroyed one,
	// for 2 s, so that a late Snapshot does not make the client query it
	// (§8.3); a Snapshot newer than its last listing shows it still
	// exists, and QueryEntity brings it back (§7.4). The default, 0, is
	// off, as is negative: every entity is kept until the server destroys
	// it, as §1 says a client MUST NOT assume a disappearance the server
	// did not state; switching expiry on reads the Snapshots, which carry
	// the replicated entities of each tick (§8.1), as stating it.
	ExpireUnlisted time.Duration
}

// ServerConfig holds the protocol and game policy of a [Server]; how a
// loop drives it is the business of [RunOptions]. The zero value gives the
// defaults and every §13 improvement switched on; every field follows the
// rule of [ClientConfig]: 0 means the default, negative off where the
// field says what off means, and the default for a bound.
type ServerConfig struct {
	// MaxPlayers bounds the open connections (§10); 0 means 4, more than
	// 255 means 255. A connection opens, and its player joins, with the
	// first valid connected packet after the Welcome, never with a Hello,
	// which any address can spoof (§12): the server keeps nothing per
	// Hello, and the Welcome's id, a MAC of the client's address, proves
	// the address once it comes back. A valid Hello is answered with
	// Rejected (§4.4) when MaxPlayers connections are open. A client
	// welcomed while a slot was free whose first packet finds none waits,
	// in a queue of MaxPlayers entries, and joins when a slot frees
	// ([Server.NumWaiting]); one that finds the queue full too is answered
	// Rejected.
	MaxPlayers int
	// InactivityTimeout closes a connection that sent no valid packet for
	// that long, as if it had sent Disconnect (§13.3), and forgets a
	// waiting client as silent; 0 means 10 s, negative never closes a
	// connection (the v1 behaviour), while waiting clients are still
	// forgotten after 10 s.
	InactivityTimeout time.Duration
	// SnapshotInterval is the number of [Server.Tick] calls between two
	// Snapshots (§8.1); 0 means 3, negative never.
	SnapshotInterval int
	// EventQueue bounds the EventInput and EventQueryEntity events waiting
	// to be read with [Server.Events]: past it a new one is lost and
	// counted in [Stats].EventsLost, so that one player's flood of Inputs
	// cannot push the others' EventPlayerJoined and EventPlayerLeft out,
	// which have 2×MaxPlayers more slots of their own and are never lost:
	// while the queue has no room for a join and the leave of every open
	// connection, a new player waits, as for a free slot, and joins at the
	// first Tick with room; 0 means 4096.
	EventQueue int
	// DisableReliableEvents sends every CreateEntity and DestroyEntity
	// once, as version 1 does (§13.4), instead of keeping, per player, what
	// its client is known to hold and sending what differs until the acks
	// show it arrived: a lost creation is then only repaired by
	// QueryEntity, a lost destruction never, and no DestroyEntity gets its
	// redundant second copy.
	DisableReliableEvents bool
	// DisableRejected drops a Hello to a full server silently, as version 1
	// does (§13.1), instead of answering Rejected; and likewise the first
	// packet of a validated client that finds every player slot and the
	// waiting queue taken, or the game ending.
	DisableRejected bool
	// Hooks, when not nil, see every datagram the server receives and
	// sends, and may drop it (§3).
	Hooks *Hooks
	// ValidationKey keys the MAC (HMAC-SHA256) that derives a Welcome's
	// connection id from the client's address and a 5-second time window
	// (§4.2, §12). nil or empty means 32 random bytes from crypto/rand,
	// drawn by NewServer and kept out of Config; set it only for
	// deterministic tests, since whoever knows it can forge connections
	// from any address.
	ValidationKey []byte
	// SendBudget is how many packets in a row a connection may leave
	// unacknowledged before the server stops sending it Snapshots,
	// CreateEntity and DestroyEntity (§12: a spoofed address never
	// acknowledges); it then gets only one empty packet for each packet it
	// sends, besides the Pong and CreateEntity that answer its Ping and
	// QueryEntity, and the world resumes as soon as an ack covers one of
	// the last SendBudget packets sent. 0 means 64, negative never (the
	// v1 behaviour). A conforming client acknowledges with every packet
	// (§5.1); set it above the packets a connection is sent in a round
	// trip, which a world of many Snapshot messages per tick raises.
	SendBudget int
}

// RunOptions tunes the UDP bindings [RunServer], [RunServerConn],
// [RunClient] and [RunClientConn]: how often they drive the sans-I/O side
// and how long a server takes to stop, which is no protocol policy and so
// not in [ServerConfig] or [ClientConfig]. The zero value gives the
// defaults, by the same rule.
type RunOptions struct {
	// Interval is the time between two calls of the tick or frame
	// function; 0 means 1/60 s (§10). A loop has no off: negative means
	// the default too.
	Interval time.Duration
	// ShutdownGrace is how long [RunServerConn], once its context is done
	// and it has called [Server.Shutdown], keeps receiving and ticking so
	// that the DestroyEntity messages of the game's end (§8.3) reach every
	// player, resent when lost (§13.4); it stops as soon as every player
	// acknowledged them. 0 means 500 ms; negative skips the shutdown: the
	// server returns at once and the clients keep the world until they
	// time out. A client has no grace: [RunClientConn] ignores it.
	ShutdownGrace time.Duration
}

// maxPlayers bounds MaxPlayers: a slot is a uint8 in events.
const maxPlayers = 255

// orDefault is the rule for a field with an off: 0 is def, and a
// negative value is kept, meaning off.
func orDefault[T time.Duration | int](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

// positiveOr is the rule for a field without an off: 0 and negative are
// def.
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
	o.ShutdownGrace = orDefault(o.ShutdownGrace, DefaultShutdownGrace)
	return o
}
