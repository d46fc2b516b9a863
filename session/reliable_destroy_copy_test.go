package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §8.3, §13.4: with reliable events, a DestroyEntity goes a second time in
// the connection's next packet, the one of the next Tick, without waiting
// for an ack, and only once: a lost first copy is then covered by the
// second without a resend, and only when both are lost is it resent, with
// no copy of its own. The duplicate is harmless, a client ignoring a
// DestroyEntity for an unknown id (§8.3). Without reliable events it goes
// once (version 1).
func TestServer_8_3_13_4_DestroyEntitySentTwice(t *testing.T) {
	tests := []struct {
		name string
		cfg  ServerConfig
		// ackFirst: the client acknowledges the first copy's packet
		// before the next Tick.
		ackFirst bool
		// bits: which of the two copies' packets, first (bit 1) and
		// second (bit 0), a later ack shows received.
		bits       uint32
		wantCopy   bool
		wantResend bool
	}{
		{"both copies arrived", ServerConfig{}, false, 0b11, true, false},
		{"first copy lost, the second arrived", ServerConfig{}, false, 0b01, true, false},
		{"first copy arrived, the second lost", ServerConfig{}, false, 0b10, true, false},
		{"both copies lost: resent once", ServerConfig{}, false, 0b00, true, true},
		{"first copy acknowledged before the next Tick: no copy", ServerConfig{}, true, 0b11, false, false},
		{"reliable events off: sent once", ServerConfig{DisableReliableEvents: true}, false, 0b00, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.SnapshotInterval = 1
			s, cp, a, b := connected(t, tt.cfg)
			now := t0.Add(time.Second)
			clientSeq := uint32(1)
			ackA := func(ack, bits uint32) {
				clientSeq++
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: clientSeq, Ack: ack, AckBits: bits}), addrA, now)
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: clientSeq, Ack: s.conns[1].seq, AckBits: ^uint32(0)}), addrB, now)
			}
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
			s.Tick(now)
			ackA(s.conns[0].seq, ^uint32(0))
			cp.take()
			// destroyIn returns the sequences of the packets to A of one
			// Tick that carry a DestroyEntity of id.
			destroyIn := func() []uint32 {
				s.Tick(now)
				var seqs []uint32
				for _, w := range cp.to(addrA) {
					for _, m := range ofType(t, []wire{w}, rtype.TypeDestroyEntity) {
						if d := decodeDestroy(t, m); d.NetworkID == id && d.Reason == rtype.DestroyGameplay {
							p, err := rtype.ParsePacket(w.b)
							if err != nil {
								t.Fatal(err)
							}
							seqs = append(seqs, p.Header().Sequence)
						}
					}
				}
				return seqs
			}

			if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
				t.Fatal(err)
			}
			first := destroyIn()
			if len(first) != 1 {
				t.Fatalf("DestroyEntity in packets %v at the Tick after Destroy, want one", first)
			}
			if tt.ackFirst {
				ackA(first[0], 0)
			}
			second := destroyIn()
			if want := []uint32{first[0] + 1}; !tt.wantCopy {
				if len(second) != 0 {
					t.Errorf("second copy in packets %v, want none", second)
				}
			} else if len(second) != 1 || second[0] != want[0] {
				t.Fatalf("second copy in packets %v, want %v: the next packet, no ack yet", second, want)
			}
			// A later packet's ack shows what arrived of the two copies.
			if tt.wantCopy {
				third := destroyIn()
				if len(third) != 0 {
					t.Errorf("a third copy in packets %v before any ack", third)
				}
				ackA(s.conns[0].seq, tt.bits<<(s.conns[0].seq-second[0]-1))
			}
			resent := destroyIn()
			if tt.wantResend != (len(resent) == 1) || len(resent) > 1 {
				t.Errorf("resent in packets %v, want a resend: %v", resent, tt.wantResend)
			}
			// Nothing more without an ack: a resend gets no second copy.
			for range 3 {
				if more := destroyIn(); len(more) != 0 {
					t.Errorf("DestroyEntity again in packets %v", more)
				}
			}
			st, _ := s.ConnStats(a)
			want := ConnStats{Resends: map[bool]uint64{true: 1}[tt.wantResend], RedundantDestroys: map[bool]uint64{true: 1}[tt.wantCopy]}
			if st.Resends != want.Resends || st.RedundantDestroys != want.RedundantDestroys {
				t.Errorf("%d resends, %d redundant; want %d, %d", st.Resends, st.RedundantDestroys, want.Resends, want.RedundantDestroys)
			}
			// The server counts every connection's: B's too.
			stB, _ := s.ConnStats(b)
			if sv := s.Stats(); sv.Resends != st.Resends+stB.Resends || sv.RedundantDestroys != st.RedundantDestroys+stB.RedundantDestroys {
				t.Errorf("server stats: %d resends, %d redundant; connections %+v, %+v", sv.Resends, sv.RedundantDestroys, st, stB)
			}
			if !tt.wantResend && s.conns[0].pending(&s.world) != 0 && !tt.cfg.DisableReliableEvents {
				t.Errorf("%d events pending after the acks", s.conns[0].pending(&s.world))
			}
		})
	}
}
