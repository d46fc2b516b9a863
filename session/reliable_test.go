package session

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// Transitions of one entity's replica with one client (§8.2, §8.3,
// §13.4): each row applies named transitions in order and states where the
// replica ends.
func TestReplica_13_4_Transitions(t *testing.T) {
	type step func(r *replica)
	var (
		spawned      = func(r *replica) { r.spawned(0) }
		killed       = func(r *replica) { r.killed(0) }
		create       = func(seq uint32) step { return func(r *replica) { r.sentCreate(seq) } }
		createV1     = func(r *replica) { r.sentCreateOnce(0) }
		destroy      = func(seq uint32) step { return func(r *replica) { r.sentDestroy(seq) } }
		destroyV1    = func(r *replica) { r.sentDestroyOnce(0) }
		ackedCreate  = func(r *replica) { r.ackedCreate(0) }
		lostCreate   = func(seq uint32) step { return func(r *replica) { r.lostCreate(seq) } }
		ackedDestroy = func(seq uint32) step { return func(r *replica) { r.ackedDestroy(seq) } }
		lostDestroy  = func(r *replica) { r.lostDestroy(0) }
		suspect      = func(seq uint32) step { return func(r *replica) { r.suspect(seq) } }
	)
	// giveUp: a held entity destroyed, then every DestroyEntity copy lost.
	giveUp := func() []step {
		steps := []step{spawned, create(3), ackedCreate, killed}
		for k := range uint32(maxDestroyTries) {
			steps = append(steps, destroy(100+k), lostDestroy)
		}
		return steps
	}
	tests := []struct {
		name  string
		steps []step
		want  replica
	}{
		{"spawned: a creation is owed", []step{spawned}, replica{state: repPending}},
		{"never sent, destroyed: nothing owed", []step{spawned, killed}, replica{}},
		{"sent", []step{spawned, create(3)}, replica{state: repCreating, creates: 1, last: 3}},
		{"sent and acknowledged: held", []step{spawned, create(3), ackedCreate}, replica{state: repHeld, last: 3}},
		{"sent and lost: sent again", []step{spawned, create(3), lostCreate(3)}, replica{state: repCreateDue, last: 3, fence: 36}},
		{"a later packet acknowledged first: sent again at once", []step{spawned, create(3), suspect(3)}, replica{state: repCreateDue, creates: 1, last: 3}},
		{"an older copy suspected: the latest still counts", []step{spawned, create(3), create(5), suspect(3)}, replica{state: repCreating, creates: 2, last: 5}},
		{"one of two copies lost: no resend", []step{spawned, create(3), create(5), lostCreate(3)}, replica{state: repCreating, creates: 1, last: 5, fence: 36}},
		{"sent, destroyed before any ack: the client may hold it", []step{spawned, create(3), killed}, replica{state: repDoomed, creates: 1, last: 3}},
		{"held, destroyed", []step{spawned, create(3), ackedCreate, killed}, replica{state: repDoomed, last: 3}},
		{"first DestroyEntity owes its echo", []step{spawned, create(3), ackedCreate, killed, destroy(4)}, replica{state: repDestroyEcho, destroys: 1, last: 4}},
		{"the echo is the last copy owed", []step{spawned, create(3), ackedCreate, killed, destroy(4), destroy(5)}, replica{state: repDestroying, destroys: 2, last: 5}},
		{"DestroyEntity acknowledged: done", []step{spawned, create(3), ackedCreate, killed, destroy(4), ackedDestroy(4)}, replica{last: 4}},
		{"both copies lost: sent again", []step{spawned, create(3), ackedCreate, killed, destroy(4), destroy(5), lostDestroy, lostDestroy}, replica{state: repDestroyDue, tries: 2, last: 5}},
		{"one copy lost, the other in flight: wait", []step{spawned, create(3), ackedCreate, killed, destroy(4), destroy(5), lostDestroy}, replica{state: repDestroying, destroys: 1, tries: 1, last: 5}},
		{"destroyed while a creation is in flight: wait for it", []step{spawned, create(3), killed, destroy(4), ackedDestroy(4)}, replica{state: repDestroyed, creates: 1, last: 4}},
		{"that creation lost, so the acks say: it may have come after, destroyed again", []step{spawned, create(3), killed, destroy(4), ackedDestroy(4), lostCreate(3)}, replica{state: repDestroyDue, last: 4, fence: 36}},
		{"a copy before the fence settles nothing", []step{spawned, create(3), killed, destroy(4), destroy(5), lostCreate(3), ackedDestroy(5)}, replica{state: repDestroyDue, destroys: 1, last: 5, fence: 36}},
		{"a copy past the fence settles it", []step{spawned, create(3), killed, destroy(4), lostCreate(3), destroy(40), ackedDestroy(40)}, replica{destroys: 1, last: 40, fence: 36}},
		{"that creation arrived after: destroyed again", []step{spawned, create(3), killed, destroy(4), ackedDestroy(4), ackedCreate}, replica{state: repDestroyDue, last: 4}},
		{"a creation acknowledged while destroying: sent again", []step{spawned, create(3), killed, destroy(4), ackedCreate}, replica{state: repDestroyDue, destroys: 1, last: 4}},
		{"every creation lost after destruction: still doomed", []step{spawned, create(3), killed, lostCreate(3)}, replica{state: repDoomed, last: 3, fence: 36}},
		{"the acks show the creation arrived: still doomed", []step{spawned, create(3), killed, ackedCreate}, replica{state: repDoomed, last: 3}},
		{"a client that loses every DestroyEntity is given up on", giveUp(), replica{destroys: 0, tries: maxDestroyTries, last: 100 + maxDestroyTries - 1}},
		{"version 1: a creation sent counts as held", []step{spawned, createV1}, replica{state: repHeld}},
		{"version 1: a destruction sent is done", []step{spawned, createV1, killed, destroyV1}, replica{}},
		{"acks of a settled entity change nothing", []step{ackedDestroy(1), lostDestroy, ackedCreate, suspect(1)}, replica{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r replica
			for _, s := range tt.steps {
				s(&r)
			}
			if d := cmp.Diff(tt.want, r, cmp.AllowUnexported(replica{})); d != "" {
				t.Errorf("replica (-want +got):\n%s", d)
			}
		})
	}
}

// §8.2, §8.3, §13.4: an entity created and destroyed while its CreateEntity
// is in flight never survives on a client that follows only the spec,
// whether the creation's packet is lost, late or on time: the server never
// sends the CreateEntity again once the entity is gone, and sends the
// DestroyEntity until a copy arrives after every creation copy that did.
func TestReliable_8_3_NoCreationAfterDestruction(t *testing.T) {
	tests := []struct {
		name string
		// The packet carrying the creation is lost, or delivered after
		// the first packet sent once the entity is destroyed.
		lose, late bool
	}{
		{"creation lost", true, false},
		{"creation late", false, true},
		{"creation on time", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: Off})
			cp.take()
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			s.Tick(t0)
			first := cp.to(addrA)
			if len(first) != 1 || len(ofType(t, first, rtype.TypeCreateEntity)) != 1 {
				t.Fatalf("first Tick sent %d datagrams, want one with the CreateEntity", len(first))
			}
			cl := newSpecClient()
			if !tt.lose && !tt.late {
				cl.receive(first[0].b)
			}
			if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
				t.Fatal(err)
			}
			seq := uint32(1)
			for i := range 120 { // 40 probes: past the 32-packet window
				s.Tick(t0)
				for _, w := range cp.to(addrA) {
					for _, m := range ofType(t, []wire{w}, rtype.TypeCreateEntity) {
						if decodeCreate(t, m).NetworkID == id {
							t.Fatalf("tick %d: CreateEntity sent again after the destruction", i)
						}
					}
					cl.receive(w.b)
				}
				if tt.late && i == 0 {
					cl.receive(first[0].b)
				}
				seq++
				ack, bits := cl.win.Ack()
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}), addrA, t0)
			}
			if cl.ents[id] {
				t.Errorf("the client still holds entity %d", id)
			}
			if p, _ := s.ConnStats(a); p.Pending != 0 {
				t.Errorf("%d events still pending", p.Pending)
			}
		})
	}
}

// §5.2, §8.3, §13.4: when the network swaps a CreateEntity and the
// DestroyEntity that follows it, a client that follows only the spec
// creates the entity after its destruction. The server cannot prevent that
// ghost, but the ack that shows the creation's packet received tells it
// the ghost may exist: it sends the DestroyEntity again at once, rather
// than when the creation's packet leaves the 32-packet window, about 1.5 s
// later at 20 packets a second.
func TestReliable_13_4_CreationOvertakenByDestruction(t *testing.T) {
	tests := []struct {
		name string
		// swap delivers the creation's packet right after the first
		// packet that carries the DestroyEntity.
		swap bool
	}{
		{"creation after destruction", true},
		{"creation before destruction", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{})
			cp.take()
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			cl := newSpecClient()
			var held []byte
			destroyed, ghostAt, clearedAt := false, -1, -1
			seq := uint32(1)
			for tick := range 240 {
				s.Tick(t0)
				for _, w := range cp.to(addrA) {
					switch {
					case held == nil && !destroyed && tt.swap && len(ofType(t, []wire{w}, rtype.TypeCreateEntity)) > 0:
						held = w.b
						continue
					case held != nil && len(ofType(t, []wire{w}, rtype.TypeDestroyEntity)) > 0:
						cl.receive(w.b)
						cl.receive(held)
						held = nil
						continue
					}
					cl.receive(w.b)
				}
				if !destroyed {
					destroyed = true
					if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
						t.Fatal(err)
					}
				}
				if cl.ents[id] && ghostAt < 0 {
					ghostAt = tick
				}
				if !cl.ents[id] && ghostAt >= 0 && clearedAt < 0 {
					clearedAt = tick
				}
				seq++
				ack, bits := cl.win.Ack()
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}), addrA, t0)
			}
			if tt.swap && ghostAt < 0 {
				t.Fatal("the creation never overtook the destruction: the test proves nothing")
			}
			// The ack goes up in the tick of the ghost, the DestroyEntity
			// comes down in the next packet: at most a Snapshot interval.
			if ghostAt >= 0 && (clearedAt < 0 || clearedAt-ghostAt > DefaultSnapshotInterval+1) {
				t.Errorf("ghost from tick %d, removed at tick %d: want within %d ticks", ghostAt, clearedAt, DefaultSnapshotInterval+1)
			}
			if cl.ents[id] {
				t.Errorf("the client still holds entity %d", id)
			}
			if p, _ := s.ConnStats(a); p.Pending != 0 {
				t.Errorf("%d events still pending", p.Pending)
			}
		})
	}
}

// §5.2, §8.3, §13.4: a creation sent several times (each copy resent once
// the acks showed the previous one lost) may reach the client through any
// copy, as late as the 32-packet window allows, and after the DestroyEntity.
// A client that follows only the spec then keeps the entity, unless the
// server, once no copy can arrive any more, sends the DestroyEntity again.
func TestReliable_13_4_LateCopyOfCreation(t *testing.T) {
	const (
		deliver = iota
		lose
		late // delivered right after the first packet carrying the DestroyEntity
	)
	tests := []struct {
		name    string
		copies  []int // fate of each copy of the CreateEntity, in order
		destroy int   // the entity is destroyed once this many copies were sent
	}{
		{"first copy late, second lost", []int{late, lose}, 2},
		{"first copy late, second delivered", []int{late, deliver}, 2},
		{"first lost, second late", []int{lose, late}, 2},
		{"three copies, first late", []int{late, lose, lose}, 3},
		{"first copy late, destroyed at once", []int{late}, 1},
		{"all lost", []int{lose, lose}, 2},
		{"first delivered", []int{deliver}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: Off})
			cp.take()
			id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
			cl := newSpecClient()
			var held [][]byte
			copies, destroyed, destroySeen := 0, false, false
			seq := uint32(1)
			for range 240 {
				s.Tick(t0)
				for _, w := range cp.to(addrA) {
					carries := func(mt rtype.MessageType) bool { return len(ofType(t, []wire{w}, mt)) > 0 }
					switch {
					case carries(rtype.TypeCreateEntity):
						fate := lose
						if copies < len(tt.copies) {
							fate = tt.copies[copies]
						}
						copies++
						switch fate {
						case deliver:
							cl.receive(w.b)
						case late:
							held = append(held, w.b)
						}
						continue
					case carries(rtype.TypeDestroyEntity) && !destroySeen:
						destroySeen = true
						cl.receive(w.b)
						for _, b := range held {
							cl.receive(b)
						}
						held = nil
						continue
					}
					cl.receive(w.b)
				}
				if !destroyed && copies >= tt.destroy {
					destroyed = true
					if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
						t.Fatal(err)
					}
				}
				seq++
				ack, bits := cl.win.Ack()
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}), addrA, t0)
			}
			if !destroyed {
				t.Fatalf("only %d copies of the creation sent", copies)
			}
			if cl.ents[id] {
				t.Errorf("the client still holds entity %d (%d copies sent)", id, copies)
			}
			if p, _ := s.ConnStats(a); p.Pending != 0 {
				t.Errorf("%d events still pending", p.Pending)
			}
		})
	}
}

// §5.2, §8.2, §8.3, §13.4: a CreateEntity overtaken by its DestroyEntity
// (reordering within the 32-packet window) whose arrival only acks lost
// upstream show: the server can only infer the creation lost when it
// leaves the window unacknowledged, which does not prove it was not
// processed, so it sends the DestroyEntity again past that window, and a
// client that follows only the spec is left no ghost.
func TestReliable_5_2_13_4_OvertakingCreationWithAcksLost(t *testing.T) {
	s, cp, a, _ := connected(t, ServerConfig{})
	cp.take()
	cl := newSpecClient()
	cseq := uint32(1)
	up := func(deliver bool) {
		cseq++
		ack, bits := cl.win.Ack()
		if deliver {
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: cseq, Ack: ack, AckBits: bits}), addrA, t0)
		}
	}
	id := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
	s.Tick(t0)
	var held [][]byte
	for _, w := range cp.to(addrA) {
		held = append(held, w.b) // the CreateEntity is delayed in the network
	}
	if err := s.Destroy(id, rtype.DestroyGameplay); err != nil {
		t.Fatal(err)
	}
	// Two ticks: the DestroyEntity and its echo reach the client.
	for range 2 {
		s.Tick(t0)
		for _, w := range cp.to(addrA) {
			cl.receive(w.b)
		}
	}
	up(true) // ack shows the destruction, not the creation
	// The late creation arrives now: within the window, processed (§5.2).
	for _, b := range held {
		cl.receive(b)
	}
	if !cl.ents[id] {
		t.Fatal("setup: no ghost")
	}
	// Upstream outage: every client packet is lost while the client's
	// highest climbs past creation+32; downstream is fine.
	for range 200 {
		s.Tick(t0)
		for _, w := range cp.to(addrA) {
			cl.receive(w.b)
		}
		up(false)
	}
	// Link healthy again for 10 s.
	for range 600 {
		s.Tick(t0)
		for _, w := range cp.to(addrA) {
			cl.receive(w.b)
		}
		up(true)
	}
	_, inWorld := s.world.find(id)
	if cl.ents[id] {
		t.Fatalf("ghost: spec client still holds destroyed entity %d (server still tracks it: %v, pending %d)", id, inWorld, s.Pending())
	}
}

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
		{"reliable events off: sent once", ServerConfig{ReliableEvents: Off}, false, 0b00, false, false},
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
			if !tt.wantResend && s.conns[0].pending(&s.world) != 0 && tt.cfg.ReliableEvents.on() {
				t.Errorf("%d events pending after the acks", s.conns[0].pending(&s.world))
			}
		})
	}
}

// §12, §13.4: a hostile client acknowledges every packet but those that
// carry a DestroyEntity (§5.1 lets it choose its ack bits): after
// maxDestroyTries lost copies the server gives up on each destroyed
// entity, so that the world table does not keep them for ever.
func TestReliable_12_SelectiveAcksPinNothing(t *testing.T) {
	s, cp := newServer(ServerConfig{MaxPlayers: 1})
	a := connect(t, s, cp, addrA, t0)
	var win rtype.SeqWindow
	now := t0
	seq := uint32(1)
	peak := 0
	for range 30000 {
		now = now.Add(time.Second / 60)
		id := s.Spawn(rtype.ArchetypeBullet, 10, 10, 0)
		s.Tick(now)
		for _, w := range cp.to(addrA) {
			if len(ofType(t, []wire{w}, rtype.TypeDestroyEntity)) == 0 {
				h, _ := messages(t, w.b)
				win.Receive(h.Sequence)
			}
		}
		_ = s.Destroy(id, rtype.DestroyGameplay)
		seq++
		ack, bits := win.Ack()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: seq, Ack: ack, AckBits: bits}, rtype.Input{InputSequence: seq, ClientTick: seq}), addrA, now)
		events(s, 0)
		peak = max(peak, len(s.world.ents))
	}
	// Each destroyed entity is given up on after maxDestroyTries copies,
	// each resolved within about a window of packets: a bound by time,
	// not by how long the client stays.
	if bound := maxDestroyTries * (ackWindow + 2); peak > bound {
		t.Errorf("world table held up to %d entities, want at most %d", peak, bound)
	}
}

// §7.4, §8.2, §8.3, §13.4: a QueryEntity that comes while the packets with
// entity messages in flight leave no room is not answered at once, since
// an untracked CreateEntity could outlive the entity's destruction: the
// creation, owed anyway, goes when there is room. A new player of a large
// world whose first packets are lost queries an entity it was never sent,
// which is then destroyed: a client that follows only the spec ends with
// the server's world, no ghost. Acks are honest throughout.
func TestReliable_7_4_QueryWhileNoRoomLeavesNoGhost(t *testing.T) {
	s, cp := newServer(ServerConfig{})
	for i := 0; i < 600; i++ {
		s.Spawn(rtype.ArchetypeEnemyBidos, 100, 100, 0)
	}
	now := t0
	id := connect(t, s, cp, addrA, now)
	sc := newSpecClient()
	sc.conn = id
	deliver := func() {
		for _, w := range cp.to(addrA) {
			sc.receive(w.b)
		}
	}
	s.Tick(now) // tick 1: 16 packets of CreateEntity, the ring is full
	cp.take()   // ... and all of them are lost
	s.Tick(now)
	deliver()
	s.Tick(now) // tick 3: a Snapshot listing all 600 entities arrives
	deliver()
	if n := s.conns[0].sent.used; n != entitySlots {
		t.Fatalf("ring holds %d, want full", n)
	}
	const last = 600 // listed in the Snapshot, never sent a CreateEntity yet
	cseq := uint32(2)
	ack, bits := sc.win.Ack()
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: cseq, Ack: ack, AckBits: bits}, rtype.QueryEntity{NetworkID: last}), addrA, now)
	deliver()
	if err := s.Destroy(last, rtype.DestroyGameplay); err != nil {
		t.Fatal(err)
	}
	// Lossless from here on: the client acks everything each frame.
	for range 300 {
		now = now.Add(time.Second / 60)
		s.Tick(now)
		deliver()
		cseq++
		ack, bits := sc.win.Ack()
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: cseq, Ack: ack, AckBits: bits}), addrA, now)
		deliver()
	}
	if p := s.Pending(); p != 0 {
		t.Fatalf("%d pending", p)
	}
	_, inWorld := s.world.get(last)
	if sc.ents[last] || len(sc.ents) != s.NumEntities() {
		t.Errorf("client holds entity %d: %v (in the server's world: %v); client holds %d entities, server %d",
			last, sc.ents[last], inWorld, len(sc.ents), s.NumEntities())
	}
}

// §8.1, §8.3: a destroyed entity is kept by the server while a client may
// still hold it, but no Snapshot lists it once its destruction is queued.
func TestReliable_8_1_SnapshotsListNoDestroyedEntity(t *testing.T) {
	s, cp, _, _ := connected(t, ServerConfig{SnapshotInterval: 1})
	keep := s.Spawn(rtype.ArchetypeEnemyBidos, 10, 10, 0)
	gone := s.Spawn(rtype.ArchetypeEnemyBidos, 20, 20, 0)
	s.Tick(t0)
	if err := s.Destroy(gone, rtype.DestroyGameplay); err != nil {
		t.Fatal(err)
	}
	cp.take()
	s.Tick(t0) // no ack yet: the dead entity stays in the table
	if _, dead := s.world.find(gone); !dead {
		t.Fatal("setup: the destroyed entity left the table before any ack")
	}
	listed := map[uint32]bool{}
	for _, m := range ofType(t, cp.take(), rtype.TypeSnapshot) {
		var snap rtype.Snapshot
		if err := snap.UnmarshalBinary(m.Payload); err != nil {
			t.Fatal(err)
		}
		for _, st := range snap.States {
			listed[st.NetworkID] = true
		}
	}
	if listed[gone] || !listed[keep] {
		t.Errorf("Snapshots list %v; want %d and never %d", listed, keep, gone)
	}
}
