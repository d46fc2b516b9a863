package session

import (
	"encoding/binary"
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// fuzzClientID is the connection id FuzzClient's server welcomes with.
const fuzzClientID = 7

// FuzzClient feeds a welcomed client any datagrams from its server, most of
// them given the connection's id so that they reach the checks of the
// messages (§5.4), between frames that move the clock on. The client never
// panics, never sends a datagram over 548 bytes (§2.2), and keeps its
// entity table and its event queue within their bounds; its View draws
// within its bound too, every value finite, rotations in [0, 2π).
//
// The input is a list of records: a flags byte (bit 0: put the connection
// id in; bit 1: come from another port, §3; bits 2–7: milliseconds to the
// next frame), a length byte, then that many bytes of datagram.
func FuzzClient(f *testing.F) {
	id := rtype.PacketHeader{ConnectionID: fuzzClientID, Sequence: 1}
	create := packet(f, id, rtype.CreateEntity{ServerTick: 1, NetworkID: 3, EntityType: rtype.ArchetypeEnemyBidos})
	snap := packet(f, rtype.PacketHeader{ConnectionID: fuzzClientID, Sequence: 2, Ack: 1, AckBits: 1},
		rtype.Snapshot{ServerTick: 3, States: []rtype.EntityState{{NetworkID: 3}, {NetworkID: 4}}})
	destroy := packet(f, rtype.PacketHeader{ConnectionID: fuzzClientID, Sequence: 3},
		rtype.DestroyEntity{ServerTick: 4, NetworkID: 3, Reason: rtype.DestroyGameplay}, rtype.Pong{Timestamp: 1})
	for _, seed := range [][][]byte{{create}, {create, snap, destroy}, {snap, snap}, {rtype.AppendWelcome(nil, 9)}} {
		var in []byte
		for _, d := range seed {
			in = append(append(in, 0x41, byte(len(d))), d...)
		}
		f.Add(in)
	}
	f.Add([]byte{0x02, 6, 'R', 'T', 'Y', 'P', 1, 3})
	f.Fuzz(fuzzClient)
}

func fuzzClient(t *testing.T, data []byte) {
	const maxEntities, eventQueue = 16, 32
	sent := 0
	view := NewView(ViewConfig{MaxEntities: maxEntities})
	c := NewClient(serverAddr, ClientConfig{MaxEntities: maxEntities, EventQueue: eventQueue,
		QueryRetry: DefaultQueryRetry, ExpireUnlisted: time.Second, View: view}, func(_ netip.AddrPort, b []byte) {
		if len(b) > rtype.MaxDatagramSize {
			t.Fatalf("the client sent %d bytes", len(b))
		}
		sent++
	})
	now := t0
	c.Update(now)
	c.Receive(rtype.AppendWelcome(nil, fuzzClientID), serverAddr, now)
	other := netip.AddrPortFrom(serverAddr.Addr(), serverAddr.Port()+1)
	for rest := data; len(rest) >= 2; {
		flags, n := rest[0], min(int(rest[1]), len(rest)-2)
		b := append([]byte(nil), rest[2:2+n]...)
		rest = rest[2+n:]
		if flags&1 != 0 && len(b) >= 4 {
			binary.BigEndian.PutUint32(b, fuzzClientID)
		}
		from := serverAddr
		if flags&2 != 0 {
			from = other
		}
		c.Receive(b, from, now)
		now = now.Add(time.Duration(flags>>2) * time.Millisecond)
		c.Update(now)
		_ = c.SendInput(rtype.ActionRight, now)
		events := 0
		for range c.Events() {
			events++
		}
		if events > eventQueue {
			t.Fatalf("%d events waited, past the queue's bound of %d", events, eventQueue)
		}
		if c.NumEntities() > maxEntities {
			t.Fatalf("%d entities held, past the bound of %d", c.NumEntities(), maxEntities)
		}
		checkDrawn(t, view.At(now), maxEntities)
	}
	if sent == 0 {
		t.Fatal("the client sent nothing, not even its Hello")
	}
}

// checkDrawn fails unless a View drew at most limit entities, each once,
// at finite positions, its rotation in [0, 2π) (§9.2).
func checkDrawn(t *testing.T, ents []Entity, limit int) {
	t.Helper()
	if len(ents) > limit {
		t.Fatalf("the view drew %d entities, past the bound of %d", len(ents), limit)
	}
	seen := map[uint32]bool{}
	for _, e := range ents {
		if seen[e.ID] || math.IsNaN(e.X+e.Y) || math.IsInf(e.X+e.Y, 0) || !(e.Rotation >= 0 && e.Rotation < 2*math.Pi) {
			t.Fatalf("the view drew %+v", e)
		}
		seen[e.ID] = true
	}
}
