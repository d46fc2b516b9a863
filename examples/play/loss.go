//go:build !js

package main

import (
	"math/rand/v2"
	"net/netip"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// lossHooks drops a fraction loss of the datagrams each way, nil for none.
// The player runs them around its client, on the model's goroutine only. A packet
// that carries a Disconnect (§7.3) is always sent: the loss simulates the
// network for the game, and a quit is the end of it, which the server
// should hear rather than time the session out (§13.3).
func lossHooks(loss float64, seed uint64) *session.Hooks {
	if loss <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	keep := func(netip.AddrPort, []byte) bool { return rng.Float64() >= loss }
	send := func(to netip.AddrPort, b []byte) bool { return carriesDisconnect(b) || keep(to, b) }
	return &session.Hooks{OnReceive: keep, OnSend: send}
}

// carriesDisconnect reports whether datagram b is a connected packet with
// a Disconnect message (§5.3, §7.3).
func carriesDisconnect(b []byte) bool {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return false
	}
	for m := range p.Messages() {
		if m.Type == rtype.TypeDisconnect {
			return true
		}
	}
	return false
}
