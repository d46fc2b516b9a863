package rtypetest

import (
	"fmt"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/session"
)

var serverAddr = netip.MustParseAddrPort("10.0.0.1:4242")

func clientAddr(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 1, byte(i + 1)}), 5000)
}

// game is a minimal game on a Sim: a ship per player, every entity still.
type game struct {
	sim     *Sim
	srv     *session.Server
	clients []*session.Client
}

// newGame puts a server and n clients on a Sim of seed, every direction
// between them losing loss of its datagrams.
func newGame(t testing.TB, seed uint64, n int, loss float64) *game {
	t.Helper()
	g := &game{sim: NewSim(seed)}
	g.srv = g.sim.NewServer(serverAddr, session.ServerConfig{})
	for i := range n {
		a := clientAddr(i)
		g.clients = append(g.clients, g.sim.NewClient(a, serverAddr, session.ClientConfig{}))
		if loss > 0 {
			for _, d := range [][2]netip.AddrPort{{a, serverAddr}, {serverAddr, a}} {
				if err := g.sim.Impair(d[0], d[1], netem.Params{Loss: loss}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return g
}

// play runs frames of 1/60 s: the Sim delivers, the server's game spawns
// ships, the server ticks, each client runs its frame and sends an Input.
func (g *game) play(frames int) {
	for range frames {
		g.sim.Advance(time.Second / 60)
		now := g.sim.Now()
		for ev := range g.srv.Events() {
			if ev.Kind == session.EventPlayerJoined {
				_, _ = g.srv.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 150, 150+100*float64(ev.Slot), 0)
			}
		}
		g.srv.Tick(now)
		for _, c := range g.clients {
			c.Update(now)
			for range c.Events() {
			}
			_ = c.SendInput(0, now)
		}
	}
}

// sides is every side's counters.
type sides struct {
	Server  session.ServerStats
	Clients []session.ClientStats
}

// stats is every side's counters.
func (g *game) stats() sides {
	st := sides{Server: g.srv.Stats()}
	for _, c := range g.clients {
		st.Clients = append(st.Clients, c.Stats())
	}
	return st
}

// 4 clients, 60 virtual seconds, 20% loss each way: each client plays,
// gets about 960 of the 1200 Snapshots sent (20 a second, §8.1), measures
// about 20% loss (§5.2), and holds the server's world at the end (§13.4).
func TestSim_13_4_FourClientsAtTwentyPercentLoss(t *testing.T) {
	g := newGame(t, 1, 4, 0.2)
	g.play(60 * 60)
	for i, c := range g.clients {
		st := c.Stats()
		if c.State() != session.Playing || st.Snapshots < 900 || st.Snapshots > 1020 {
			t.Errorf("client %d: %v, %d Snapshots; want Playing, about 960", i, c.State(), st.Snapshots)
		}
		if l := st.Loss(); l < 0.17 || l > 0.23 {
			t.Errorf("client %d: loss %.3f measured, want about 0.2", i, l)
		}
		if d := WorldDiff(g.srv, c, 0); d != "" {
			t.Errorf("client %d's world differs from the server's:\n%s", i, d)
		}
	}
	if g.srv.NumPlayers() != 4 {
		t.Errorf("%d players, want 4", g.srv.NumPlayers())
	}
}

// A run repeats exactly for a seed: every counter of every side is the
// same; another seed gives other counters.
func TestSim_Deterministic(t *testing.T) {
	run := func(seed uint64) sides {
		g := newGame(t, seed, 4, 0.2)
		g.play(10 * 60)
		return g.stats()
	}
	a, b, other := run(7), run(7), run(8)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("seed 7 twice (-first +second):\n%s", d)
	}
	if cmp.Equal(a, other) {
		t.Error("seeds 7 and 8 gave the same counters")
	}
}

// Datagrams are delivered by time, then in the order they were sent; a
// delayed direction holds them, a partition drops them until healed.
func TestSim_DeliveryOrderDelayAndPartition(t *testing.T) {
	s := NewSim(1)
	a, b := clientAddr(0), serverAddr
	var got []string
	recv := func(name string) func([]byte, netip.AddrPort, time.Time) {
		return func(p []byte, from netip.AddrPort, now time.Time) {
			got = append(got, fmt.Sprintf("%s@%v:%s", name, now.Sub(Epoch), p))
		}
	}
	sendA, err := s.Attach(a, recv("a"))
	if err != nil {
		t.Fatal(err)
	}
	sendB, err := s.Attach(b, recv("b"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Attach(a, recv("again")); err != ErrAddrInUse {
		t.Errorf("second Attach on a: %v, want ErrAddrInUse", err)
	}
	if err := s.Impair(a, b, netem.Params{Delay: 30 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := s.Impair(a, b, netem.Params{Loss: 2}); err == nil {
		t.Error("Impair took a loss of 2")
	}
	sendA(b, []byte("1"))
	sendB(a, []byte("2"))
	sendB(a, []byte("3"))
	s.Advance(10 * time.Millisecond)
	sendA(b, []byte("4"))
	s.Advance(100 * time.Millisecond)
	s.Partition(a, b)
	sendA(b, []byte("lost"))
	s.Advance(time.Second)
	s.Heal(a, b)
	sendB(a, []byte("5"))
	s.Advance(0)
	want := []string{"a@0s:2", "a@0s:3", "b@30ms:1", "b@40ms:4", "a@1.11s:5"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("deliveries (-want +got):\n%s", d)
	}
	if st := s.Stats(a, b); st.Sent != 3 || st.Delivered != 2 || st.Dropped(DropPartition) != 1 {
		t.Errorf("a → b: %+v", st)
	}
}

// A datagram through a perfect direction costs no allocation: the Sim
// copies it into a pooled buffer.
func TestSim_DatagramsDoNotAllocate(t *testing.T) {
	s := NewSim(1)
	a, b := clientAddr(0), serverAddr
	n := 0
	send, _ := s.Attach(a, func([]byte, netip.AddrPort, time.Time) {})
	_, _ = s.Attach(b, func([]byte, netip.AddrPort, time.Time) { n++ })
	p := make([]byte, 100)
	for range 100 {
		send(b, p)
		s.Advance(time.Millisecond)
	}
	if allocs := testing.AllocsPerRun(1000, func() {
		send(b, p)
		s.Advance(time.Millisecond)
	}); allocs != 0 {
		t.Errorf("%v allocations per datagram, want 0", allocs)
	}
	if n != 1101 { // AllocsPerRun runs once more to warm up
		t.Errorf("%d delivered, want 1101", n)
	}
}

// BenchmarkSim_FourClients: the game of TestSim_13_4 for 60 virtual
// seconds, reported as virtual seconds per wall second, and the
// allocations per datagram once the game is set up (the Sim's and the
// endpoints' together).
func BenchmarkSim_FourClients(b *testing.B) {
	for _, loss := range []float64{0, 0.2} {
		b.Run(fmt.Sprintf("loss=%v", loss), func(b *testing.B) {
			b.ReportAllocs()
			var datagrams, allocs uint64
			for b.Loop() {
				g := newGame(b, 1, 4, loss)
				g.play(60) // joined, ships created: the steady state
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				g.play(59 * 60)
				runtime.ReadMemStats(&after)
				allocs += after.Mallocs - before.Mallocs
				for i := range g.clients {
					datagrams += g.sim.Stats(clientAddr(i), serverAddr).Sent + g.sim.Stats(serverAddr, clientAddr(i)).Sent
				}
			}
			b.ReportMetric(60*float64(b.N)/b.Elapsed().Seconds(), "virtual-s/s")
			b.ReportMetric(float64(allocs)/float64(datagrams), "allocs/datagram")
		})
	}
}

// A Tap sees each datagram as it is sent, before the direction's model,
// and drops those it returns false for, counted apart.
func TestSim_Tap(t *testing.T) {
	s := NewSim(1)
	a, b := clientAddr(0), serverAddr
	var got []string
	send, _ := s.Attach(a, nil)
	_, _ = s.Attach(b, func(p []byte, _ netip.AddrPort, _ time.Time) { got = append(got, string(p)) })
	var seen []string
	s.SetTap(func(at time.Time, from, to netip.AddrPort, p []byte) bool {
		seen = append(seen, fmt.Sprintf("%v %v>%v %s", at.Sub(Epoch), from, to, p))
		return string(p) != "drop me"
	})
	send(b, []byte("one"))
	send(b, []byte("drop me"))
	s.Advance(time.Millisecond)
	send(b, []byte("two"))
	s.Advance(time.Millisecond)
	want := []string{"0s 10.0.1.1:5000>10.0.0.1:4242 one", "0s 10.0.1.1:5000>10.0.0.1:4242 drop me", "1ms 10.0.1.1:5000>10.0.0.1:4242 two"}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("tap saw (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"one", "two"}, got); d != "" {
		t.Errorf("delivered (-want +got):\n%s", d)
	}
	if st := s.Stats(a, b); st.Sent != 3 || st.Dropped(DropTap) != 1 || st.Delivered != 2 {
		t.Errorf("stats %+v", st)
	}
}

// Impairing a direction again starts a new random stream, not the first
// model's draws again; the same calls with the same seed give the same.
func TestSim_ImpairAgainDrawsAnew(t *testing.T) {
	fates := func(s *Sim, send func(netip.AddrPort, []byte), n *int) []int {
		var lost []int
		for i := range 64 {
			before := *n
			send(serverAddr, []byte{byte(i)})
			s.Advance(time.Millisecond)
			if *n == before {
				lost = append(lost, i)
			}
		}
		return lost
	}
	run := func() (first, second []int) {
		s := NewSim(9)
		n := 0
		send, _ := s.Attach(clientAddr(0), nil)
		_, _ = s.Attach(serverAddr, func([]byte, netip.AddrPort, time.Time) { n++ })
		_ = s.Impair(clientAddr(0), serverAddr, netem.Params{Loss: 0.5})
		first = fates(s, send, &n)
		_ = s.Impair(clientAddr(0), serverAddr, netem.Params{Loss: 0.5})
		return first, fates(s, send, &n)
	}
	f1, s1 := run()
	f2, s2 := run()
	if cmp.Equal(f1, s1) {
		t.Errorf("the second model lost the same datagrams as the first: %v", f1)
	}
	if !cmp.Equal(f1, f2) || !cmp.Equal(s1, s2) {
		t.Error("the same calls and seed lost other datagrams")
	}
}
