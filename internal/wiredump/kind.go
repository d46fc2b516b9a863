package wiredump

// Kind is which parser a datagram goes through (§3).
type Kind uint8

const (
	Handshake Kind = iota // §4 handshake datagram
	Packet                // §5 connected packet
)

// String returns "handshake" or "packet", as the outputs name the kind.
func (k Kind) String() string {
	if k == Handshake {
		return "handshake"
	}
	return "packet"
}
