package session

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

// Tracer receives the events of a Client or a Server as they happen, for
// a trace of each connection (docs/trace.md; package qlog writes them as
// files). Set one in [ClientConfig] or [ServerConfig]: unset, tracing
// costs one nil check per event. Trace runs on the caller's goroutine,
// inside the Client's or Server's method; the event and its Datagram are
// valid only during the call, and Trace must not call the Client or
// Server, which is not reentrant.
type Tracer interface {
	Trace(e *TraceEvent)
}

// TraceKind says what a [TraceEvent] reports.
type TraceKind uint8

// Trace event kinds.
const (
	// TracePacketSent: a datagram handed to the network.
	TracePacketSent TraceKind = iota + 1
	// TracePacketReceived: a datagram received and processed, handshake
	// (§4) or connected packet (§5).
	TracePacketReceived
	// TracePacketDropped: a datagram received and dropped whole; Drop
	// says why (§12).
	TracePacketDropped
	// TracePacketLost: Sequence, a packet of the peer's, left the §5.2
	// window unreceived: it is lost for good.
	TracePacketLost
	// TraceStateUpdated: a Client entered State; Close says why once
	// Closed.
	TraceStateUpdated
	// TraceRTTUpdated: a round-trip sample, RTT, and the smoothed SRTT: a
	// client's from Pongs (§7.2), a server's from acks (§5.1).
	TraceRTTUpdated
	// TraceEntityResent: the CreateEntity or DestroyEntity (Message) of
	// Entity sent again since its last copy seems lost (§13.4).
	TraceEntityResent
	// TraceConnStateUpdated: a Server's connection with Peer entered
	// ConnState; Close says why once ConnClosed.
	TraceConnStateUpdated
)

var traceKindNames = [...]string{"", "PacketSent", "PacketReceived", "PacketDropped", "PacketLost", "StateUpdated", "RTTUpdated", "EntityResent", "ConnStateUpdated"}

// String names the kind.
func (k TraceKind) String() string {
	if k > 0 && int(k) < len(traceKindNames) {
		return traceKindNames[k]
	}
	return "TraceKind(" + strconv.Itoa(int(k)) + ")"
}

// TraceEvent is one event of a trace. Only the fields of its Kind are set.
type TraceEvent struct {
	// Kind says what happened, and which of the fields below are set.
	Kind TraceKind
	// Time is when it happened, the now of the call that caused it.
	Time time.Time
	// Peer is the other side: a client's server, a server's client.
	Peer netip.AddrPort
	// Conn is the connection id (§4.3) once known, for a state update.
	Conn uint32
	// Datagram is the datagram sent, received or dropped.
	Datagram []byte
	// Drop is why a datagram was dropped.
	Drop DropReason
	// Sequence is the peer's packet lost.
	Sequence uint32
	// State is a Client's new state; ConnState a Server connection's.
	State     State
	ConnState ConnState
	// Close is why the connection closed, once State or ConnState says so.
	Close CloseReason
	// RTT and SRTT are the latest round trip and the smoothed one.
	RTT, SRTT time.Duration
	// Entity and Message are the entity whose message was resent, and that
	// message's type.
	Entity  uint32
	Message rtype.MessageType
}
