package session

import "net/netip"

// Hooks see every datagram, handshake or connected (§3), valid or not, that
// a [Client] or [Server] receives or sends, so a tool can count, log or
// capture traffic without its own loop around [RunClientConn] or
// [RunServerConn]. Set them in [ClientConfig] or [ServerConfig]; a nil
// function is skipped. A hook runs inside the calling method; the datagram
// is valid only during the call, and the hook must not call the Client or
// Server it observes, which is not reentrant. Returning false drops the
// datagram as a lossy link would (§5.2, §13.4): on receive, uncounted in
// PacketsIn; on send, counted in PacketsOut but never passed to the
// [SendFunc].
type Hooks struct {
	// OnReceive sees each datagram passed to Receive, before any check.
	OnReceive func(from netip.AddrPort, datagram []byte) bool
	// OnSend sees each datagram sent, before the SendFunc.
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
