package rtypefuzz

import (
	"net/netip"
	"time"
)

// Datagram is one datagram of a run, as the fuzzer sent or received it.
type Datagram struct {
	// At is the time since the start of its session.
	At time.Duration
	// Out is set for a datagram the fuzzer sent, clear for one it received.
	Out bool
	// From and To are its addresses.
	From, To netip.AddrPort
	// Bytes are its contents.
	Bytes []byte
}

// Layer is the part of a datagram a mutation changes.
type Layer uint8

// Layers, from the outside in.
const (
	// LayerHandshake: the bytes of a Hello, Welcome or Rejected (§4).
	LayerHandshake Layer = iota
	// LayerHeader: connectionId, sequence, ack or ackBits (§5.1).
	LayerHeader
	// LayerFraming: message types and sizes, the number of messages (§5.3, §6).
	LayerFraming
	// LayerPayload: a message's fields at their edges (§7, §8).
	LayerPayload
	// LayerLength: the datagram's length, from 0 to past 548 bytes (§2.2).
	LayerLength

	// NumLayers is the number of layers.
	NumLayers
)

var layerNames = [NumLayers]string{"handshake", "header", "framing", "payload", "length"}

// String names the layer.
func (l Layer) String() string {
	if l < NumLayers {
		return layerNames[l]
	}
	return "layer?"
}

// Target is the side under test.
type Target uint8

// Targets.
const (
	// Server: the fuzzer plays clients; it sends what a server receives
	// (Hello; Input, Ping, Disconnect, QueryEntity, §7).
	Server Target = iota
	// Client: the fuzzer plays the server; it sends what a client
	// receives (Welcome, Rejected; Snapshot, CreateEntity, DestroyEntity,
	// Pong, §8).
	Client
)

// Context is what a mutation knows of the session it is sent in: enough to
// build a valid datagram of the session first, then to break it.
type Context struct {
	// Target is the side the datagram goes to.
	Target Target
	// Conn is the session's connection id (§4.3), 0 before a Welcome.
	Conn uint32
	// Seq is the sequence of the fuzzer's last packet in the session; the
	// next valid one is Seq+1 (§5.2).
	Seq uint32
	// Ack and AckBits acknowledge the peer's packets received (§5.1).
	Ack, AckBits uint32
	// Tick is the last serverTick the fuzzer sent or saw (§8).
	Tick uint32
	// Entities are the entity ids the session knows, at most a few dozen
	// (§8.2).
	Entities []uint32
}

// Mutation is one datagram to send, and how it was made.
type Mutation struct {
	// Layer is the part mutated.
	Layer Layer
	// What says in a few words what was done, such as "header: sequence
	// 2³¹ ahead" or "payload: Snapshot count 48".
	What string
	// Bytes is the datagram.
	Bytes []byte
	// Sequenced is set when Bytes carries the session's next sequence
	// (Context.Seq+1) in a well-formed header: the session then moves on
	// to it.
	Sequenced bool
	// Ends is set when the datagram may end or desynchronize the session:
	// a Disconnect (§7.3) or a sequence far ahead (§5.2), after which
	// the receiver may drop every later packet. A run sends it as its
	// session's last datagram.
	Ends bool
}
