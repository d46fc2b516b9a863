package bot

import (
	"net/netip"
	"slices"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// Result is what one bot saw during its session.
type Result struct {
	// Name identifies the bot in reports.
	Name string
	// Server is the address the bot played against.
	Server netip.AddrPort
	// Connected is true once Welcome arrived (§4.3): the client was
	// Waiting.
	Connected bool
	// Playing is true once the server sent the world, a first Snapshot,
	// CreateEntity or DestroyEntity (§10): the client was Playing. A
	// server with every player slot taken keeps a welcomed client waiting
	// without it.
	Playing bool
	// Rejected is true when the server answered Rejected (§4.4).
	Rejected bool
	// State is the client's state at the bot's last frame: Connecting,
	// Waiting or Playing when the bot stopped, Closed when the client
	// stopped by itself.
	State session.State
	// ConnectionID is the id Welcome gave (§4.3).
	ConnectionID uint32
	// Lost is true when the session ended other than by the bot's own
	// Disconnect.
	Lost bool
	// Err is why the bot could not connect or lost its session.
	Err error

	// Inputs counts the Inputs sent (§7.1).
	Inputs int
	// Entities is the number of entities the bot knows now; EntitiesSeen the
	// number of distinct network ids it ever knew (§8.2).
	Entities, EntitiesSeen int
	// Created and Destroyed count the entities created and destroyed
	// (§8.2, §8.3).
	Created, Destroyed int
	// Expired counts the entities the client removed because no Snapshot
	// listed them for ExpireUnlisted: ghosts of a DestroyEntity lost and
	// never resent (§13.4).
	Expired int
	// RTT holds one round trip per Pong (§7.2).
	RTT []time.Duration
	// LastRTT is the latest round trip measured.
	LastRTT time.Duration
	// SmoothedRTT is the session client's smoothed round trip (§7.2).
	SmoothedRTT time.Duration
	// HelloResends counts Hello datagrams sent again while waiting for
	// Welcome (§4.2).
	HelloResends int
	// Resends counts the CreateEntity and DestroyEntity the server
	// sent again because the packet carrying them was lost (§13.4), when
	// the server's counters are at hand; -1 when they are not.
	Resends int
	// ServerClose is why the server closed the bot's connection, when the
	// server's record is at hand; CloseNone when it is not.
	ServerClose session.CloseReason
	// Client holds the session client's counters: Snapshots received
	// (§8.1), Pongs (§8.4), server packets accepted and lost (§5.2), drops
	// by rule.
	Client session.ClientStats
	// Smooth is what a smooth view of the bot's world drew at each of its
	// frames, its own ship predicted (session.View).
	Smooth Smooth
}

// Loss returns the fraction of server packets that never arrived (§5.2).
func (r *Result) Loss() float64 { return r.Client.Loss() }

// RTTPercentile returns the p-th percentile (0 to 100) of the round trips,
// 0 without any Pong.
func (r *Result) RTTPercentile(p float64) time.Duration {
	return percentile(slices.Clone(r.RTT), p)
}

// percentile returns the p-th percentile (0 to 100) of d by nearest rank,
// 0 for no sample. d is sorted in place.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(float64(len(d))*p/100+0.999999) - 1
	return d[max(0, min(i, len(d)-1))]
}
