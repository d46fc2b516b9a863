package session

import (
	"net/netip"
	"time"
)

// Counters are what both sides count, embedded in [ClientStats] and
// [ServerStats]: plain values read without allocating.
type Counters struct {
	// PacketsIn and BytesIn count every datagram received, valid or not.
	PacketsIn, BytesIn uint64
	// PacketsOut and BytesOut count every datagram sent.
	PacketsOut, BytesOut uint64
	// Drops counts the datagrams and messages dropped, by rule.
	Drops Drops
	// Rejected counts Rejected sent (server) or received (client) (§4.4).
	Rejected uint64
	// EventsLost counts events pushed out of a full event queue.
	EventsLost uint64
	// SRTT is the smoothed round-trip time: a client's from Ping and Pong
	// (§7.2), a server's from acks (§5.2), averaged over its connections.
	SRTT time.Duration
	// Snapshots counts the Snapshot messages a client accepted or a server
	// sent (§8.1): several per serverTick beyond 47 states.
	Snapshots uint64
	// PacketsAccepted counts the peer's packets processed (§5.2, §5.4).
	PacketsAccepted uint64
	// RTT counts the round-trip samples, in seconds: a client's from Ping
	// and Pong (§7.2), a server's from acks (§5.1, §5.2).
	RTT Histogram
	// PacketsLost counts the peer's packets that never arrived: sequences
	// that left the §5.2 window (the highest and the 32 below) unreceived,
	// to be dropped as too old after. A gap counts once final, so an
	// out-of-order packet is never lost; sequences below the first received
	// do not count, and one jump of the highest counts at most 33.
	PacketsLost uint64
}

// Loss returns PacketsLost / (PacketsAccepted + PacketsLost), 0 before any
// packet, lagging by the 33 packets a gap needs to become final.
func (s Counters) Loss() float64 {
	if s.PacketsAccepted+s.PacketsLost == 0 {
		return 0
	}
	return float64(s.PacketsLost) / float64(s.PacketsAccepted+s.PacketsLost)
}

// ClientStats are the counters of a [Client].
type ClientStats struct {
	Counters
	// Pongs counts the Pongs matched with Pings, each an [EventPong]
	// (§7.2, §8.4).
	Pongs uint64
}

// ServerStats are the counters of a [Server], over all its connections.
type ServerStats struct {
	Counters
	// Welcomes counts the Welcomes sent, one per valid Hello from an
	// address without a connection while not full (§4.3, §13.2).
	Welcomes uint64
	// Waited counts the validated clients queued for a slot (§4.3, §10).
	Waited uint64
	// Resends counts CreateEntity and DestroyEntity copies resent since the
	// acks showed the last copy lost (§13.4).
	Resends uint64
	// RedundantDestroys counts the second copy of each DestroyEntity that
	// reliable events send at the next Tick without waiting for an ack, so a
	// lost destruction rarely needs a resend (§8.3, §13.4); not in Resends.
	RedundantDestroys uint64
	// SnapshotSizes counts the size in bytes of each datagram sent with a
	// Snapshot (§8.1, §2.2).
	SnapshotSizes Histogram
}

// ConnStats are the counters of one server connection.
type ConnStats struct {
	// Conn is the connection id.
	Conn uint32
	// Addr is the address the connection is bound to.
	Addr netip.AddrPort
	// Slot is the player slot.
	Slot uint8
	// Open is set for a connection open now; clear, the counters are those
	// it had when it closed.
	Open bool
	// Sent counts the packets sent on the connection.
	Sent uint64
	// Acked counts the packets the client acknowledged (§5.2).
	Acked uint64
	// Lost counts the packets that left the client's window unacknowledged
	// (§5.2): an ack over 32 above arrived, or 64 more were sent before any.
	// A late ack of one moves it back to Acked.
	Lost uint64
	// Resends counts entity events sent again (§13.4).
	Resends uint64
	// RedundantDestroys is as in [ServerStats] (§8.3, §13.4).
	RedundantDestroys uint64
	// Pending counts the entities whose CreateEntity or DestroyEntity the
	// client is owed or has not acknowledged (§13.4).
	Pending int
	// SRTT is the smoothed round-trip time measured from acks.
	SRTT time.Duration
}

// Loss returns Lost / (Acked + Lost), 0 before any packet is resolved.
func (s ConnStats) Loss() float64 {
	if s.Acked+s.Lost == 0 {
		return 0
	}
	return float64(s.Lost) / float64(s.Acked+s.Lost)
}
