package session

import "net/netip"

// Hooks see every datagram a [Client] or [Server] receives or sends, of
// both kinds of §3 (handshake datagrams and connected packets), valid or
// not, so that a tool or a bot can count, log or capture traffic without
// running its own UDP loop around [RunClientConn] or [RunServerConn]. Set them
// in [ClientConfig].Hooks or [ServerConfig].Hooks; a nil function is
// skipped.
//
// A hook runs on the goroutine that called the method, inside it. The
// datagram is only valid during the call: copy it to keep it. A hook must
// not call methods of the Client or Server it observes, which are not
// reentrant.
//
// A hook that returns false drops the datagram as the network would lose
// it, which is how a test or a bot simulates a lossy link (§5.2, §13.4): a
// datagram dropped on receive is never seen, nor counted in PacketsIn; one
// dropped on send is counted in PacketsOut, as sent, and never reaches the
// [SendFunc].
type Hooks struct {
	// OnReceive is called with every datagram passed to Receive and the
	// address it came from, before any check.
	OnReceive func(from netip.AddrPort, datagram []byte) bool
	// OnSend is called with every datagram the side sends and the address
	// it goes to, before the SendFunc.
	OnSend func(to netip.AddrPort, datagram []byte) bool
}

// received runs OnReceive; false means the datagram is lost.
func (h *Hooks) received(from netip.AddrPort, b []byte) bool {
	return h == nil || h.OnReceive == nil || h.OnReceive(from, b)
}

// sending runs OnSend; false means the datagram is lost.
func (h *Hooks) sending(to netip.AddrPort, b []byte) bool {
	return h == nil || h.OnSend == nil || h.OnSend(to, b)
}
