package session

import "net/netip"

// Hooks see every datagram, handshake or connected (§3), valid or not, that
// a UDP binding ([RunClientConn], a host's match) passes to Receive or
// takes from the [SendFunc], so a tool can count, log or capture traffic
// without its own loop. Set them in [RunOptions]; a nil function is
// skipped. A caller driving a [Client] or [Server] itself already holds
// both directions and needs none. A hook runs on the binding's goroutine,
// inside the Client's or Server's method for OnSend; the datagram is valid
// only during the call, and the hook must not call the Client or Server,
// which is not reentrant. Returning false drops the datagram as a lossy
// link would (§5.2, §13.4): on receive, before Receive, so uncounted in
// PacketsIn; on send, after the Client or Server counted it in PacketsOut.
type Hooks struct {
	// OnReceive sees each datagram received, before Receive and any check.
	OnReceive func(from netip.AddrPort, datagram []byte) bool
	// OnSend sees each datagram sent, before the socket.
	OnSend func(to netip.AddrPort, datagram []byte) bool
}

// received runs OnReceive; false means the datagram is lost.
func (h *Hooks) received(from netip.AddrPort, b []byte) bool {
	return h == nil || h.OnReceive == nil || h.OnReceive(from, b)
}

// sendFunc wraps send with OnSend.
func (h *Hooks) sendFunc(send SendFunc) SendFunc {
	if h == nil || h.OnSend == nil {
		return send
	}
	return func(to netip.AddrPort, b []byte) {
		if h.OnSend(to, b) {
			send(to, b)
		}
	}
}
