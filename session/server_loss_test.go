package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §5.2: ConnStats.Lost counts a packet the client never acknowledged once
// it leaves the client's window (more than 32 below the highest
// acknowledged), when the client can no longer report it; a client packet
// that arrives late and acknowledges it after all moves it to Acked.
func TestServer_5_2_ConnStatsLostLeavesWindow(t *testing.T) {
	// acks returns the ack and ackBits of a client that received the
	// sequences 1 to upTo but those in missing (§5.1).
	acks := func(upTo uint32, missing ...uint32) (uint32, uint32) {
		var bits uint32
		for i := uint32(0); i < 32 && i+1 < upTo; i++ {
			seq := upTo - 1 - i
			got := true
			for _, m := range missing {
				got = got && m != seq
			}
			if got {
				bits |= 1 << i
			}
		}
		return upTo, bits
	}
	type ackPkt struct{ ack, bits uint32 }
	mk := func(upTo uint32, missing ...uint32) ackPkt {
		a, b := acks(upTo, missing...)
		return ackPkt{a, b}
	}
	tests := []struct {
		name string
		sent uint32   // packets the server sends A, one per Tick
		acks []ackPkt // what A sends afterwards, in order
		want string
	}{
		{"1 to 5 leave the window of ack 38",
			38, []ackPkt{mk(38, 5)}, "33 acked, 5 lost"},
		{"5 still in the window of ack 37",
			37, []ackPkt{mk(37, 5)}, "32 acked, 4 lost"},
		{"a late client packet acknowledges the lost ones",
			40, []ackPkt{mk(40), mk(7)}, "40 acked, 0 lost"},
		{"only ack 40, then a late ack of 7",
			40, []ackPkt{{40, 0}, mk(7)}, "8 acked, 0 lost"},
		{"100 packets acknowledged late: each counted once",
			100, []ackPkt{mk(40, 5), mk(100)}, "37 acked, 63 lost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Up to 100 packets go unacknowledged: past the send budget
			// (§12) the server would stop sending them.
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: 1, SendBudget: -1})
			for range tt.sent {
				s.Tick(t0)
			}
			if n := len(cp.to(addrA)); n != int(tt.sent) {
				t.Fatalf("sent %d packets to A, want %d", n, tt.sent)
			}
			for i, p := range tt.acks {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: uint32(2 + i), Ack: p.ack, AckBits: p.bits}), addrA, t0.Add(time.Millisecond))
			}
			st, _ := s.ConnStats(a)
			if got := fmt.Sprintf("%d acked, %d lost", st.Acked, st.Lost); got != tt.want {
				t.Errorf("%s, want %s", got, tt.want)
			}
		})
	}
}
