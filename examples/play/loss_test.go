//go:build !js

package main

import (
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// packet returns a connected packet of connection 7 carrying msgs (§5.1).
func packet(t *testing.T, msgs ...rtype.Message) []byte {
	t.Helper()
	b, err := rtype.PacketHeader{ConnectionID: 7, Sequence: 1}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if b, err = rtype.AppendMessage(b, m); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// -loss drops Inputs and what comes in, but never the packet of a quit's
// Disconnect (§7.3), alone or after other messages.
func TestLossKeepsDisconnect(t *testing.T) {
	h := lossHooks(0.9, 1)
	to := netip.MustParseAddrPort("192.0.2.1:4242")
	input := packet(t, rtype.Input{InputSequence: 1})
	quits := [][]byte{
		packet(t, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}),
		packet(t, rtype.Input{InputSequence: 2}, rtype.Ping{}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}),
	}
	const n = 1000
	var inputs, received, disconnects int
	for range n {
		if h.OnSend(to, input) {
			inputs++
		}
		if h.OnReceive(to, input) {
			received++
		}
		for _, q := range quits {
			if h.OnSend(to, q) {
				disconnects++
			}
		}
	}
	if disconnects != n*len(quits) {
		t.Errorf("%d of %d Disconnect packets sent, want all", disconnects, n*len(quits))
	}
	if inputs > n/5 || received > n/5 {
		t.Errorf("at -loss 0.9, %d of %d Inputs sent and %d received: not dropped", inputs, n, received)
	}
	if lossHooks(0, 1) != nil {
		t.Error("hooks at -loss 0")
	}
}
