package session

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §5.2, §8.1: a client counts the Snapshots it accepted and the server
// packets it processed and lost, so that a bot reports loss from its
// Stats alone.
func TestClient_5_2_StatsCountSnapshotsAndLoss(t *testing.T) {
	badSnap := rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: []byte{0, 0, 0, 1, 0, 1}} // says 1 state, has none
	type pkt struct {
		seq  uint32
		conn uint32 // 0 means the client's own
		snap bool
		bad  bool
	}
	seqs := func(from, to uint32, skip ...uint32) []pkt {
		var out []pkt
	next:
		for s := from; s <= to; s++ {
			for _, k := range skip {
				if s == k {
					continue next
				}
			}
			out = append(out, pkt{seq: s, snap: true})
		}
		return out
	}
	tests := []struct {
		name                      string
		pkts                      []pkt
		snapshots, accepted, lost uint64
		loss                      float64
	}{
		{"every packet a Snapshot", seqs(1, 60), 60, 60, 0, 0},
		{"two lost in 100", seqs(1, 100, 20, 50), 98, 98, 2, 0.02},
		{"duplicates and other connections are not counted",
			append(seqs(1, 10), pkt{seq: 10, snap: true}, pkt{seq: 11, conn: 6, snap: true}), 10, 10, 0, 0},
		{"an invalid Snapshot is dropped, its packet processed",
			[]pkt{{seq: 1, snap: true}, {seq: 2, bad: true}}, 1, 2, 0, 0},
		{"a packet without messages counts, not as a Snapshot",
			[]pkt{{seq: 1}, {seq: 2, snap: true}}, 1, 2, 0, 0},
	}
	for _, tt := range tests {
		c, _ := connectedClient(t, ClientConfig{})
		for _, p := range tt.pkts {
			conn := uint32(5)
			if p.conn != 0 {
				conn = p.conn
			}
			b := packet(t, rtype.PacketHeader{ConnectionID: conn, Sequence: p.seq})
			switch {
			case p.snap:
				b = packet(t, rtype.PacketHeader{ConnectionID: conn, Sequence: p.seq}, snapshot(p.seq))
			case p.bad:
				b = append(b, byte(badSnap.Type>>8), byte(badSnap.Type), 0, byte(len(badSnap.Payload)))
				b = append(b, badSnap.Payload...)
			}
			c.Receive(b, serverAddr, t0)
		}
		st := c.Stats()
		if st.Snapshots != tt.snapshots || st.PacketsAccepted != tt.accepted || st.PacketsLost != tt.lost || st.Loss() != tt.loss {
			t.Errorf("%s: %d Snapshots, %d accepted, %d lost, loss %v; want %d, %d, %d, %v",
				tt.name, st.Snapshots, st.PacketsAccepted, st.PacketsLost, st.Loss(), tt.snapshots, tt.accepted, tt.lost, tt.loss)
		}
	}
}

// §5.2, §8.1: a server counts the Snapshot messages it sent, and the
// client packets it processed and lost, over every connection.
func TestServer_5_2_StatsCountSnapshotsAndLoss(t *testing.T) {
	s, _, a, b := connected(t, ServerConfig{SnapshotInterval: 1})
	for i := range 50 {
		s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 0, 0) // 50 states: 2 Snapshots a tick
	}
	for range 10 {
		s.Tick(t0)
	}
	for seq := uint32(2); seq <= 100; seq++ {
		if seq != 30 {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq}), addrA, t0)
		}
		if seq%10 != 0 {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: seq}), addrB, t0)
		}
	}
	st := s.Stats()
	// Packet 1 of each came in connected(). A: 99 of 100, lost 30. B: 90
	// of 100, highest 99: 10 … 60 lost (6), 70 … 90 still in the window.
	if st.Snapshots != 2*10*2 || st.PacketsAccepted != 99+90 || st.PacketsLost != 1+6 {
		t.Errorf("%d Snapshots, %d accepted, %d lost; want 40, 189, 7", st.Snapshots, st.PacketsAccepted, st.PacketsLost)
	}
}

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
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: 1, SendBudget: Off})
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

// §8.1, §5.1: a server's Stats count the size of every datagram it sent
// with a Snapshot, and a round-trip sample for each ack of its latest
// packet, in their buckets.
func TestServer_8_1_StatsHistograms(t *testing.T) {
	s, cp := newServer(ServerConfig{SnapshotInterval: 1})
	id := connect(t, s, cp, addrA, t0)
	for i := range 50 {
		s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 0, 0) // 50 states: 2 Snapshots a tick
	}
	cp.take()
	s.Tick(t0)
	var sizes []int
	var last uint32
	for _, w := range cp.take() {
		if len(ofType(t, []wire{w}, rtype.TypeSnapshot)) > 0 {
			sizes = append(sizes, len(w.b))
		}
		h, _ := messages(t, w.b)
		last = max(last, h.Sequence)
	}
	st := s.Stats()
	h := st.SnapshotSizes
	if len(sizes) != 2 || h.Count != 2 || h.Sum != float64(sizes[0]+sizes[1]) {
		t.Fatalf("Snapshot datagrams %v, histogram %d of sum %v", sizes, h.Count, h.Sum)
	}
	big := sizes[0] // 47 states: the 448-512 bucket
	if i := slices.IndexFunc(SnapshotBounds, func(b float64) bool { return float64(big) <= b }); h.Counts[i] == 0 {
		t.Errorf("a %d-byte Snapshot datagram not in bucket ≤ %v: %v", big, SnapshotBounds[i], h.Counts)
	}
	rtt0 := st.RTT.Count
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 3, Ack: last}), addrA, t0.Add(30*time.Millisecond))
	r := s.Stats().RTT
	if r.Count != rtt0+1 || r.Counts[5] != 1 { // 30 ms: the bucket ≤ 35 ms
		t.Errorf("RTT histogram after a 30 ms ack: %d samples, buckets %v", r.Count, r.Counts)
	}
}
