package session

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/rtypeproto/rtype"
)

// The steady-state hot paths, shared by the benchmarks and by
// TestHotPathsDoNotAllocate, so that what is measured is what is proven not
// to allocate.

func discard(netip.AddrPort, []byte) {}

// serverReceive is a server with one player and a function that delivers
// the player's next packet: an Input, and every 60th packet a Ping, which
// is answered.
func serverReceive(t testing.TB) func() { return serverReceiveWith(t, nil) }

// serverReceiveWith is serverReceive through hooks h, as a UDP binding
// applies them (udpLoop).
func serverReceiveWith(t testing.TB, h *Hooks) func() {
	s := NewServer(ServerConfig{}, discard)
	cp := &capture{}
	s.send = cp.send
	id := join(t, s, cp, addrA, t0)
	s.send = h.sendFunc(discard)
	input := packet(t, rtype.PacketHeader{ConnectionID: id}, rtype.Input{Actions: rtype.ActionUp})
	ping := packet(t, rtype.PacketHeader{ConnectionID: id}, rtype.Input{Actions: rtype.ActionUp}, rtype.Ping{Timestamp: 1})
	seq := uint32(0)
	now := t0
	return func() {
		seq++
		now = now.Add(time.Second / 60)
		p := input
		if seq%60 == 0 {
			p = ping
		}
		binary.BigEndian.PutUint32(p[4:8], seq)
		binary.BigEndian.PutUint32(p[20:24], seq)
		if h.received(addrA, p) {
			s.Receive(p, addrA, now)
		}
		for range s.Events() {
		}
	}
}

// serverTick is a server with four players acknowledging everything, 200
// moving entities, a Snapshot every tick, and a function that runs one
// tick: the players' packets in, the world moved, Tick out.
func serverTick(t testing.TB) func() {
	return serverTickWith(t, ServerConfig{SnapshotInterval: 1})
}

// serverTickWith is serverTick with cfg.
func serverTickWith(t testing.TB, cfg ServerConfig) func() {
	cp := &capture{}
	s := NewServer(cfg, cp.send)
	addrs := []netip.AddrPort{addrA, addrB, addrC, netip.MustParseAddrPort("198.51.100.4:5004")}
	var ids []uint32
	for _, a := range addrs {
		ids = append(ids, join(t, s, cp, a, t0))
	}
	var ents []uint32
	for i := range 200 {
		ents = append(ents, s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 0, 0))
	}
	s.send = discard
	pkts := make([][]byte, len(addrs))
	for i, id := range ids {
		pkts[i] = packet(t, rtype.PacketHeader{ConnectionID: id, AckBits: 0xFFFFFFFF}, rtype.Input{Actions: rtype.ActionUp})
	}
	seq := uint32(0)
	now := t0
	return func() {
		seq++
		now = now.Add(time.Second / 60)
		for i, p := range pkts {
			binary.BigEndian.PutUint32(p[4:8], seq)
			binary.BigEndian.PutUint32(p[8:12], s.conns[i].seq)
			binary.BigEndian.PutUint32(p[20:24], seq)
			s.Receive(p, addrs[i], now)
		}
		for e := range s.Events() {
			_ = e
		}
		y := float64(seq % 500)
		for i, id := range ents {
			_ = s.Move(id, float64(i), y, 0)
		}
		s.Tick(now)
	}
}

// clientReceive is a connected client that knows 47 entities and a
// function that delivers the Pong of the latest Ping when there is one and
// the next 47-state Snapshot, and sends one Input.
func clientReceive(t testing.TB) func() {
	_, f := clientReceiving(t, nil)
	return f
}

func clientReceiving(t testing.TB, h *Hooks) (*Client, func()) {
	c := NewClient(serverAddr, ClientConfig{}, h.sendFunc(discard))
	c.Update(t0)
	c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
	states := make([]rtype.EntityState, rtype.MaxSnapshotStates)
	var creates []rtype.Message
	for i := range states {
		states[i] = rtype.EntityState{NetworkID: uint32(i + 1)}
		creates = append(creates, create(uint32(i+1), 1))
	}
	seq := uint32(1)
	for len(creates) > 0 {
		n := min(len(creates), 20)
		c.Receive(packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq}, creates[:n]...), serverAddr, t0)
		creates = creates[n:]
		seq++
	}
	snap := packet(t, rtype.PacketHeader{ConnectionID: 5}, rtype.Snapshot{ServerTick: 1, States: states})
	// The server's answer to the latest Ping (§7.2), delivered before
	// the next Snapshot.
	pong := packet(t, rtype.PacketHeader{ConnectionID: 5}, rtype.Pong{})
	answered := uint32(0)
	now := t0
	return c, func() {
		now = now.Add(time.Second / 20)
		if ts := c.pings.lastTS; ts != answered {
			answered = ts
			seq++
			binary.BigEndian.PutUint32(pong[4:8], seq)
			binary.BigEndian.PutUint32(pong[len(pong)-4:], ts)
			if h.received(serverAddr, pong) {
				c.Receive(pong, serverAddr, now)
			}
		}
		seq++
		binary.BigEndian.PutUint32(snap[4:8], seq)
		if h.received(serverAddr, snap) {
			c.Receive(snap, serverAddr, now)
		}
		for range c.Events() {
		}
		c.Update(now)
		_ = c.SendInput(rtype.ActionShoot, now)
	}
}

func TestHotPathsDoNotAllocate(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    func(testing.TB) func()
	}{
		{"server receive", serverReceive},
		{"server tick", serverTick},
		{"server Snapshot cycle", func(t testing.TB) func() {
			cycle, _ := serverCycle(t)
			return cycle
		}},
		{"client receive and send", clientReceive},
		{"server receive with hooks", func(t testing.TB) func() {
			return serverReceiveWith(t, countingHooks())
		}},
		{"client receive and send with hooks", func(t testing.TB) func() {
			_, f := clientReceiving(t, countingHooks())
			return f
		}},
	} {
		f := tt.f(t)
		for range 200 { // reach the steady state
			f()
		}
		if n := testing.AllocsPerRun(500, f); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tt.name, n)
		}
	}
}

// countingHooks are hooks a tool would set: they count what they see and
// keep everything.
func countingHooks() *Hooks {
	var in, out, bytes int
	return &Hooks{
		OnReceive: func(_ netip.AddrPort, b []byte) bool { in++; bytes += len(b); return true },
		OnSend:    func(_ netip.AddrPort, b []byte) bool { out++; bytes += len(b); return true },
	}
}

func BenchmarkServerReceive(b *testing.B) {
	f := serverReceive(b)
	b.ReportAllocs()
	for b.Loop() {
		f()
	}
}

// BenchmarkServerTick: one 60 Hz tick with 4 players and 200 entities:
// 4 packets in, 200 moves, 5 Snapshot packets out per player.
func BenchmarkServerTick(b *testing.B) {
	f := serverTick(b)
	b.ReportAllocs()
	for b.Loop() {
		f()
	}
}

func BenchmarkClientReceiveSnapshot(b *testing.B) {
	f := clientReceive(b)
	b.ReportAllocs()
	for b.Loop() {
		f()
	}
}

// Reading the counters allocates nothing, so an operator can poll them
// every tick.
func TestStatsDoNotAllocate(t *testing.T) {
	s, _, a, _ := connected(t, ServerConfig{})
	c := NewClient(serverAddr, ClientConfig{}, discard)
	var sink uint64
	n := testing.AllocsPerRun(100, func() {
		st := s.Stats()
		p, _ := s.ConnStats(a)
		sink += st.Drops.Total() + p.Sent + c.Stats().PacketsIn + uint64(p.Loss())
		for p := range s.AllConnStats() {
			sink += p.Acked
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per run", n)
	}
	_ = sink
}

// snapshotDelivery is a Playing client that knows 47 entities, the
// 47-state Snapshot datagram listing them, and a function that delivers
// the next copy of it (a new sequence, a new serverTick) and drains the
// events, as a game does every frame.
func snapshotDelivery(t testing.TB) (deliver func(), datagram []byte) {
	return snapshotDeliveryTo(t, nil, 0)
}

// decodeSnapshot is the codec's share of the same work: check the
// datagram, split its message, decode the Snapshot (§5.3, §8.1).
func decodeSnapshot(b []byte, s *rtype.Snapshot) error {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return err
	}
	m, _, _ := rtype.SplitMessage(p.MessageArea())
	return s.UnmarshalBinary(m.Payload)
}

// BenchmarkClientSnapshotRatio times a 47-state Snapshot through a Playing
// Client, events drained, against the codec's decode of the same
// datagram, in alternating batches, and reports the median per-batch
// ratio (x-decode): what the session adds to the codec.
func BenchmarkClientSnapshotRatio(b *testing.B) {
	deliver, datagram := snapshotDelivery(b)
	snap := rtype.Snapshot{States: make([]rtype.EntityState, 0, rtype.MaxSnapshotStates)}
	var ratios []float64
	for b.Loop() {
		t1 := time.Now()
		for range 1000 {
			if err := decodeSnapshot(datagram, &snap); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		for range 1000 {
			deliver()
		}
		ratios = append(ratios, float64(time.Since(t2))/float64(t2.Sub(t1)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-decode")
}

func TestClient_8_1_SnapshotDeliveryDoesNotAllocate(t *testing.T) {
	deliver, _ := snapshotDelivery(t)
	for range 10 {
		deliver()
	}
	if n := testing.AllocsPerRun(500, deliver); n != 0 {
		t.Errorf("%v allocations per Snapshot, want 0", n)
	}
}

// Events are small plain values, cheap to queue and poll: at most 96
// bytes on a 64-bit platform.
func TestEventIsSmall(t *testing.T) {
	for name, size := range map[string]uintptr{"ClientEvent": unsafe.Sizeof(ClientEvent{}), "ServerEvent": unsafe.Sizeof(ServerEvent{})} {
		if unsafe.Sizeof(uintptr(0)) == 8 && size > 96 {
			t.Errorf("%s is %d bytes, want at most 96", name, size)
		}
	}
}

// serverCycle is serverTick's world on the default Snapshot interval: a
// function that runs one Snapshot cycle, its ticks and its Snapshot round
// (§8.1, §10), and one that encodes the same 200 states the way the
// codec alone would, into the Snapshot packets of each of the 4 players.
func serverCycle(t testing.TB) (cycle, encode func()) {
	tick := serverTickWith(t, ServerConfig{})
	var bld rtype.Builder
	states := make([]rtype.EntityState, 200)
	for i := range states {
		states[i] = rtype.EntityState{NetworkID: uint32(i + 1), EntityType: 0xFF, X: rtype.Pos16(i)}
	}
	serverTick := uint32(0)
	return func() {
			for range DefaultSnapshotInterval {
				tick()
			}
		}, func() {
			serverTick++
			for p := range uint32(4) {
				for m := range rtype.SplitSnapshot(serverTick, states) {
					_ = bld.Reset(rtype.PacketHeader{ConnectionID: p + 1, Sequence: serverTick})
					_ = rtype.Add(&bld, m)
					_ = bld.Bytes()
				}
			}
		}
}

// BenchmarkServerCycleRatio times serverCycle's Snapshot cycle against
// its encoding, in alternating batches, and reports the median per-batch
// ratio (x-encode): what the session adds to the codec on the server.
func BenchmarkServerCycleRatio(b *testing.B) {
	cycle, encode := serverCycle(b)
	for range 100 { // reach the steady state
		cycle()
	}
	var ratios []float64
	for b.Loop() {
		t1 := time.Now()
		for range 100 {
			encode()
		}
		t2 := time.Now()
		for range 100 {
			cycle()
		}
		ratios = append(ratios, float64(time.Since(t2))/float64(t2.Sub(t1)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-encode")
}

// BenchmarkServerMoveRatio times Server.Move of 200 entities against
// looking their ids up in the world's index, in the same order, in
// alternating batches, and reports the median per-batch ratio (x-lookup):
// in the order they were spawned, which Move looks at first, and shuffled.
func BenchmarkServerMoveRatio(b *testing.B) {
	for _, shuffled := range []bool{false, true} {
		name := "SpawnOrder"
		if shuffled {
			name = "Shuffled"
		}
		b.Run(name, func(b *testing.B) {
			s := NewServer(ServerConfig{}, discard)
			ids := make([]uint32, 200)
			for i := range ids {
				ids[i] = s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 0, 0)
			}
			if shuffled {
				rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			}
			var sink int32
			var ratios []float64
			y := 0.0
			for b.Loop() {
				t1 := time.Now()
				for range 100 {
					for _, id := range ids {
						p, _ := s.world.index.get(id)
						sink += p
					}
				}
				t2 := time.Now()
				for range 100 {
					y++
					for _, id := range ids {
						_ = s.Move(id, y, y, 0)
					}
				}
				ratios = append(ratios, float64(time.Since(t2))/float64(t2.Sub(t1)))
			}
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "x-lookup")
			_ = sink
		})
	}
}
