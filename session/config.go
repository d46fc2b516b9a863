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

// Defaults used for the zero fields of [ClientConfig] and [ServerConfig].
const (
	// DefaultHelloInterval is how often a client resends Hello (§4.2).
	DefaultHelloInterval = time.Second
	// DefaultGiveUp is how long a client keeps sending Hello (§4.2).
	DefaultGiveUp = 10 * time.Second
	// DefaultTimeout is how long a peer may stay silent before its
	// connection is closed (§13.3).
	DefaultTimeout = 10 * time.Second
	// DefaultPingInterval is how often a client sends Ping (§7.2).
	DefaultPingInterval = time.Second
	// DefaultQueryRetry is a QueryRetry for a client that opts in to
	// asking again about an id whose QueryEntity or answer was lost (§7.4);
	// a zero QueryRetry asks once, as §7.4 says a client SHOULD.
	DefaultQueryRetry = 500 * time.Millisecond
	// DefaultDestroyedMemory is how long a client remembers a destroyed id
	// so that a late Snapshot does not make it query that id (§8.3).
	DefaultDestroyedMemory = 2 * time.Second
	// DefaultMaxEntities bounds a client's entity table.
	DefaultMaxEntities = 4096
	// DefaultEventQueue bounds the events waiting to be polled.
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
	// DefaultFrameInterval is the frame time of the UDP bindings: 60 client
	// frames or server ticks per second (§10).
	DefaultFrameInterval = time.Second / 60
	// DefaultShutdownGrace is how long [ServeConn] keeps running, once its
	// context is done, for every player to acknowledge the end of the game
	// (§8.3).
	DefaultShutdownGrace = 500 * time.Millisecond
)

// ClientConfig tunes a [Client]. The zero value gives the defaults above;
// a negative duration switches the corresponding timer off, as each field
// says.
type ClientConfig struct {
	// HelloInterval is the time between two Hello datagrams while
	// connecting; 0 means 1 s (§4.2), negative sends Hello once and never
	// again.
	HelloInterval time.Duration
	// GiveUp is how long after the first Hello the client stops trying and
	// reports [EventTimedOut]; 0 means 10 s (§4.2), negative never.
	GiveUp time.Duration
	// ServerTimeout closes a connected client that has received no valid
	// packet for that long, with [EventTimedOut]; 0 means 10 s, negative
	// never.
	ServerTimeout time.Duration
	// PingInterval is the time between two Pings (§7.2); 0 means 1 s,
	// negative never.
	PingInterval time.Duration
	// QueryRetry, when positive, is how long the client waits for the
	// CreateEntity that answers a QueryEntity before a Snapshot that still
	// lists the unknown id may make it ask again, which repairs a lost
	// query or answer ([DefaultQueryRetry] is a sensible value). 0 or
	// negative asks once per id, as §7.4 says a client SHOULD: the id is
	// asked about again only once no Snapshot listed it for
	// DestroyedMemory. Whatever its value, a client whose entity table
	// holds MaxEntities entities asks nothing, since it would drop the
	// answer.
	QueryRetry time.Duration
	// DestroyedMemory is how long a destroyed id is remembered so that it
	// is not queried again when a late Snapshot lists it (§8.3), and how
	// long a QueryEntity is remembered once no Snapshot lists its id; 0
	// means 2 s. Negative never forgets a destroyed id by time (only the
	// 256 most recent are kept), while queries are still forgotten after
	// 2 s.
	DestroyedMemory time.Duration
	// MaxEntities bounds the entity table: a CreateEntity past it is
	// dropped; 0 means 4096.
	MaxEntities int
	// EventQueue bounds the events waiting for Poll: past it the oldest
	// EventSnapshot is lost first, since the entity table holds what it
	// reported and the next Snapshot reports again (§8.1), and only a
	// queue without one loses its oldest event; each is counted in
	// [Stats].EventsLost; 0 means 4096.
	EventQueue int
	// FrameInterval is the frame time [RunClient] calls its frame
	// function at; 0 or negative means 1/60 s. The sans-I/O Client
	// ignores it.
	FrameInterval time.Duration
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
	// for DestroyedMemory, so that a late Snapshot does not make the
	// client query it (§8.3); a Snapshot newer than its last listing shows
	// it still exists, and QueryEntity brings it back (§7.4). 0 or
	// negative keeps every entity until the server destroys it, as §1 says
	// a client MUST NOT assume a disappearance the server did not state;
	// switching expiry on reads the Snapshots, which carry the replicated
	// entities of each tick (§8.1), as stating it.
	ExpireUnlisted time.Duration
}

// ServerConfig tunes a [Server]. The zero value gives the defaults above
// and every §13 improvement switched on.
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
	// for Poll: past it a new one is lost and counted in
	// [Stats].EventsLost, so that one player's flood of Inputs cannot
	// push the others' EventPlayerJoined and EventPlayerLeft out, which
	// have 2×MaxPlayers more slots of their own and are never lost: while
	// the queue has no room for a join and the leave of every open
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
	// TickInterval is the time between two ticks in [RunServer]; 0 or
	// negative means 1/60 s. The sans-I/O Server ignores it.
	TickInterval time.Duration
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
	// ShutdownGrace is how long [ServeConn], once its context is done and
	// it has called [Server.Shutdown], keeps receiving and ticking so that
	// the DestroyEntity messages of the game's end (§8.3) reach every
	// player, resent when lost (§13.4); it stops as soon as every player
	// acknowledged them. 0 means 500 ms; negative skips the shutdown: the
	// server returns at once and the clients keep the world until they time
	// out. The sans-I/O Server ignores it.
	ShutdownGrace time.Duration
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

// maxPlayers bounds MaxPlayers: a slot is a uint8 in events.
const maxPlayers = 255

func orDuration(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// orPositive is orDuration for the durations that cannot be switched off.
func orPositive(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func orInt(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

func (c ClientConfig) withDefaults() ClientConfig {
	c.HelloInterval = orDuration(c.HelloInterval, DefaultHelloInterval)
	c.GiveUp = orDuration(c.GiveUp, DefaultGiveUp)
	c.ServerTimeout = orDuration(c.ServerTimeout, DefaultTimeout)
	c.PingInterval = orDuration(c.PingInterval, DefaultPingInterval)
	c.DestroyedMemory = orDuration(c.DestroyedMemory, DefaultDestroyedMemory)
	c.MaxEntities = orInt(c.MaxEntities, DefaultMaxEntities)
	c.EventQueue = orInt(c.EventQueue, DefaultEventQueue)
	c.FrameInterval = orPositive(c.FrameInterval, DefaultFrameInterval)
	return c
}

func (c ServerConfig) withDefaults() ServerConfig {
	c.MaxPlayers = min(orInt(c.MaxPlayers, DefaultMaxPlayers), maxPlayers)
	c.InactivityTimeout = orDuration(c.InactivityTimeout, DefaultTimeout)
	if c.SnapshotInterval == 0 {
		c.SnapshotInterval = DefaultSnapshotInterval
	}
	c.EventQueue = orInt(c.EventQueue, DefaultEventQueue)
	c.TickInterval = orPositive(c.TickInterval, DefaultFrameInterval)
	c.ShutdownGrace = orDuration(c.ShutdownGrace, DefaultShutdownGrace)
	if c.SendBudget == 0 {
		c.SendBudget = DefaultSendBudget
	}
	return c
}
