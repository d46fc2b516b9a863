package session

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §8.2, §8.3: serverTick is the server tick at sending time, and a
// CreateEntity describes the entity as it is when the message is written:
// one queued before a Tick carries that Tick's number, and one resent
// because its packet was lost (§13.4) carries the tick and the position of
// the resend.
func TestServer_8_2_StampedAtSendingTime(t *testing.T) {
	type env struct {
		t   *testing.T
		s   *Server
		cp  *capture
		a   uint32
		seq uint32 // last sequence A sent
	}
	// tick runs n Ticks and returns the entity messages they sent to A,
	// with the sequence of the last packet.
	tick := func(e *env, n int) (ms []rtype.Message, last uint32) {
		for range n {
			e.s.Tick(t0)
		}
		for _, w := range e.cp.to(addrA) {
			h, raw := messages(e.t, w.b)
			last = h.Sequence
			for _, m := range raw {
				switch m.Type {
				case rtype.TypeCreateEntity:
					ms = append(ms, decodeCreate(e.t, m))
				case rtype.TypeDestroyEntity:
					ms = append(ms, decodeDestroy(e.t, m))
				}
			}
		}
		return ms, last
	}
	// ack makes A acknowledge packet seq alone: the packets before it, up
	// to 32, are lost.
	ack := func(e *env, seq uint32) {
		e.seq++
		e.s.Receive(packet(e.t, rtype.PacketHeader{ConnectionID: e.a, Sequence: e.seq, Ack: seq}), addrA, t0)
	}
	// lose makes the server send A one more packet, a Pong, and A
	// acknowledge only that one, which shows every earlier packet lost.
	lose := func(e *env) {
		e.seq++
		e.s.Receive(packet(e.t, rtype.PacketHeader{ConnectionID: e.a, Sequence: e.seq}, ping7), addrA, t0)
		_, last := tick(e, 0)
		ack(e, last)
	}
	// known spawns an entity at x = 100 and makes A acknowledge its
	// creation.
	known := func(e *env) uint32 {
		id := e.s.Spawn(rtype.ArchetypeEnemyBidos, 100, 50, 0)
		_, last := tick(e, 1)
		ack(e, last)
		return id
	}
	cr := func(tick, id uint32, x float64) rtype.CreateEntity {
		return rtype.CreateEntity{ServerTick: tick, NetworkID: id, EntityType: rtype.ArchetypeEnemyBidos, X: rtype.PosFromPixels(x), Y: rtype.PosFromPixels(50)}
	}
	tests := []struct {
		name string
		run  func(e *env) []rtype.Message
		want []rtype.Message
	}{
		{"creation queued before a Tick", func(e *env) []rtype.Message {
			tick(e, 4)
			e.s.Spawn(rtype.ArchetypeEnemyBidos, 100, 50, 0)
			ms, _ := tick(e, 1)
			return ms
		}, []rtype.Message{cr(5, 1, 100)}},
		{"moved before its creation went out", func(e *env) []rtype.Message {
			tick(e, 4)
			id := e.s.Spawn(rtype.ArchetypeEnemyBidos, 100, 50, 0)
			_ = e.s.Move(id, 300, 50, 0)
			ms, _ := tick(e, 1)
			return ms
		}, []rtype.Message{cr(5, 1, 100+200)}},
		{"creation resent after a loss", func(e *env) []rtype.Message {
			id := e.s.Spawn(rtype.ArchetypeEnemyBidos, 100, 50, 0)
			tick(e, 1)
			lose(e)
			_ = e.s.Move(id, 400, 50, 0)
			ms, _ := tick(e, 1)
			return ms
		}, []rtype.Message{cr(2, 1, 400)}},
		{"destruction queued before a Tick", func(e *env) []rtype.Message {
			id := known(e)
			tick(e, 3)
			_ = e.s.Destroy(id, rtype.DestroyGameplay)
			ms, _ := tick(e, 1)
			return ms
		}, []rtype.Message{rtype.DestroyEntity{ServerTick: 5, NetworkID: 1, Reason: rtype.DestroyGameplay}}},
		{"destruction resent after a loss", func(e *env) []rtype.Message {
			id := known(e)
			_ = e.s.Destroy(id, rtype.DestroyGameplay)
			tick(e, 1)
			lose(e)
			ms, _ := tick(e, 1)
			return ms
		}, []rtype.Message{rtype.DestroyEntity{ServerTick: 3, NetworkID: 1, Reason: rtype.DestroyGameplay}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp, a, _ := connected(t, ServerConfig{SnapshotInterval: Off})
			e := &env{t: t, s: s, cp: cp, a: a, seq: 1}
			got := tt.run(e)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("entity messages of the last Tick (-want +got):\n%s", d)
			}
		})
	}
}
