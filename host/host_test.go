package host

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/session"
)

// running is a Host under Run, stopped at the test's end.
type running struct {
	*Host
	stop context.CancelFunc
	done chan error
}

func start(t *testing.T, cfg Config) *running {
	t.Helper()
	if cfg.Addr == "" && cfg.Conns == nil {
		cfg.Addr = "127.0.0.1:0"
	}
	h, err := Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	r := &running{Host: h, stop: stop, done: make(chan error, 1)}
	go func() { r.done <- h.Run(ctx) }()
	t.Cleanup(func() { r.end(t) })
	return r
}

// end stops the host and returns what Run returned.
func (r *running) end(t *testing.T) error {
	r.stop()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return 10 s after its context ended")
		return nil
	}
}

// player runs a session client of addr that sends an Input every frame
// and counts the Snapshots it is sent (§7.1, §8.1), until the test ends.
type player struct {
	snapshots atomic.Int64
	playing   atomic.Bool
}

func play(t *testing.T, addr string) *player {
	p := &player{}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = session.RunClient(ctx, addr, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
			p.playing.Store(c.State() == session.Playing)
			p.snapshots.Store(int64(c.Stats().Snapshots))
			_ = c.SendInput(rtype.ActionUp, now)
			return true
		})
	}()
	t.Cleanup(func() { stop(); <-done })
	return p
}

func noGame(int, netip.AddrPort) Match { return Match{} }

func TestListenConsecutivePorts(t *testing.T) {
	h, err := Listen(Config{Addr: "127.0.0.1:0", Matches: 5, New: noGame})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for i := range h.Matches() {
		if got, want := h.Addr(i).Port(), h.Addr(0).Port()+uint16(i); got != want {
			t.Errorf("match %d on port %d, want %d", i, got, want)
		}
	}
}

// A port of the run already taken fails Listen, and leaves none open.
func TestListenTakenPort(t *testing.T) {
	taken, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.LocalAddr().(*net.UDPAddr).Port
	first := net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port - 2}
	_, err = Listen(Config{Addr: first.String(), Matches: 4, New: noGame})
	if !errors.Is(err, ErrListen) {
		t.Fatalf("Listen over a taken port: %v, want ErrListen", err)
	}
	for _, p := range []int{port - 2, port - 1} {
		c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p})
		if err != nil {
			t.Errorf("port %d still open after the failed Listen: %v", p, err)
			continue
		}
		c.Close()
	}
}

// A Config Listen cannot run is ErrConfig, never a field ignored, and
// the caller's Conns are closed: no socket stays open.
func TestListenConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"no New", Config{Matches: 1}},
		{"negative", Config{Matches: -1, New: noGame}},
		{"too many", Config{Matches: MaxMatches + 1, New: noGame}},
		{"Conns and Addr", Config{Addr: "127.0.0.1:0", New: noGame}},
		{"Conns and Listen", Config{New: noGame, Listen: func(netip.AddrPort) (session.PacketConn, error) {
			return nil, errors.New("called")
		}}},
		{"Conns and Matches", Config{Matches: 2, New: noGame}},
		{"Conns without New", Config{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			var conn *closeConn
			if strings.HasPrefix(tc.name, "Conns") {
				conn = &closeConn{}
				cfg.Conns = []session.PacketConn{conn}
			}
			if _, err := Listen(cfg); !errors.Is(err, ErrConfig) {
				t.Errorf("Listen: %v, want ErrConfig", err)
			}
			if conn != nil && !conn.closed {
				t.Error("the Conn given is still open")
			}
		})
	}
}

// closeConn is a session.PacketConn that only records its Close.
type closeConn struct{ closed bool }

func (c *closeConn) ReadFromUDPAddrPort([]byte) (int, netip.AddrPort, error) {
	return 0, netip.AddrPort{}, net.ErrClosed
}
func (c *closeConn) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) { return len(b), nil }
func (c *closeConn) Close() error                                               { c.closed = true; return nil }

// Every match of a host plays on its own port, each client getting its
// Snapshots (§10), and the metrics add them up.
func TestMatchesPlay(t *testing.T) {
	const n = 3
	ticks := make([]atomic.Int64, n)
	r := start(t, Config{Matches: n, Loops: 2, New: func(i int, _ netip.AddrPort) Match {
		return Match{Tick: func(*session.Server, time.Time) { ticks[i].Add(1) }}
	}})
	players := make([]*player, n)
	for i := range n {
		players[i] = play(t, r.Addr(i).String())
	}
	exampletest.WaitFor(t, "every client to get 20 Snapshots", func() bool {
		for _, p := range players {
			if p.snapshots.Load() < 20 {
				return false
			}
		}
		return true
	})
	// A busy match's counters are published every publishBusy ticks.
	var m Metrics
	exampletest.WaitFor(t, "the metrics to count 60 Snapshots", func() bool {
		r.ReadMetrics(&m)
		return m.Snapshot.Count >= 60
	})
	if m.Matches != n || m.Players != n || m.Failed != 0 {
		t.Errorf("metrics: %d matches, %d players, %d failed; want %d, %d, 0", m.Matches, m.Players, m.Failed, n, n)
	}
	if m.DatagramsIn < 60 || m.DatagramsOut < 60 || m.BytesIn < 16*m.DatagramsIn || m.BytesOut < 16*m.DatagramsOut {
		t.Errorf("datagram counters %d in (%d B), %d out (%d B): too few", m.DatagramsIn, m.BytesIn, m.DatagramsOut, m.BytesOut)
	}
	if m.RTT.Count == 0 || m.Tick.Count == 0 || m.Snapshot.Count < 60 {
		t.Errorf("histograms: %d RTT, %d tick, %d Snapshot observations", m.RTT.Count, m.Tick.Count, m.Snapshot.Count)
	}
	// Each tick ran its game: a game's time per tick, within the tick's.
	if m.Game.Count != m.Tick.Count || m.Game.Sum > m.Tick.Sum {
		t.Errorf("game histogram: %d ticks, %gs; the ticks': %d, %gs", m.Game.Count, m.Game.Sum, m.Tick.Count, m.Tick.Sum)
	}
	for i := range ticks {
		if ticks[i].Load() == 0 {
			t.Errorf("match %d's game never ticked", i)
		}
	}
	r.ReadMetrics(&m)
	before := m.DatagramsIn
	exampletest.WaitFor(t, "the datagram counter to rise", func() bool { r.ReadMetrics(&m); return m.DatagramsIn > before })
	if err := r.end(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	r.ReadMetrics(&m)
	if m.Matches != 0 || m.Players != 0 {
		t.Errorf("after Run: %d matches, %d players, want 0", m.Matches, m.Players)
	}
}

// A game that panics closes its match only: the others play on.
func TestPanicClosesOneMatch(t *testing.T) {
	r := start(t, Config{Matches: 3, Loops: 1, New: func(i int, _ netip.AddrPort) Match {
		return Match{Tick: func(s *session.Server, _ time.Time) {
			if i == 1 && s.NumPlayers() > 0 {
				panic("game bug")
			}
		}}
	}})
	players := []*player{play(t, r.Addr(0).String()), play(t, r.Addr(1).String()), play(t, r.Addr(2).String())}
	var m Metrics
	exampletest.WaitFor(t, "match 1 to fail", func() bool { r.ReadMetrics(&m); return m.Failed == 1 })
	at := []int64{players[0].snapshots.Load(), players[2].snapshots.Load()}
	exampletest.WaitFor(t, "matches 0 and 2 to send 10 more Snapshots", func() bool {
		return players[0].snapshots.Load() > at[0]+10 && players[2].snapshots.Load() > at[1]+10
	})
	r.ReadMetrics(&m)
	if m.Matches != 2 || m.Players != 2 {
		t.Errorf("after the panic: %d matches, %d players; want 2, 2", m.Matches, m.Players)
	}
	if err := r.end(t); !errors.Is(err, ErrMatch) {
		t.Fatalf("Run: %v, want ErrMatch", err)
	}
}

// Once Run's context ends, every player is sent the end of the game, its
// entities destroyed with reason 4 (§8.3), before the sockets close; and
// the game's last tick reads each player's departure.
func TestShutdownEndsTheGame(t *testing.T) {
	var left atomic.Int64
	r := start(t, Config{Matches: 2, New: func(int, netip.AddrPort) Match {
		spawned := false
		return Match{Tick: func(s *session.Server, _ time.Time) {
			for ev := range s.Events() {
				if ev.Kind == session.EventPlayerLeft {
					left.Add(1)
				}
			}
			if !spawned {
				s.Spawn(rtype.ArchetypeReactor, 100, 100, 0)
				spawned = true
			}
		}}
	}})
	ended := make([]atomic.Bool, 2)
	for i := range 2 {
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = session.RunClient(ctx, r.Addr(i).String(), session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
				for ev := range c.Events() {
					if ev.Kind == session.EventEntityDestroyed && ev.Destroy == rtype.DestroyGameEnded {
						ended[i].Store(true)
					}
				}
				_ = c.SendInput(0, now)
				return true
			})
		}()
		t.Cleanup(func() { stop(); <-done })
	}
	var m Metrics
	exampletest.WaitFor(t, "both players", func() bool { r.ReadMetrics(&m); return m.Players == 2 })
	exampletest.WaitFor(t, "a Snapshot to each", func() bool { r.ReadMetrics(&m); return m.Snapshot.Count >= 2 })
	if err := r.end(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	exampletest.WaitFor(t, "both clients to see the game end", func() bool { return ended[0].Load() && ended[1].Load() })
	if got := left.Load(); got != 2 {
		t.Errorf("the games read %d departures at the end, want 2", got)
	}
}

// The matches of a loop send their Snapshots on different ticks, a third
// of them on each (§8.1: every 3 ticks), whatever the number of loops.
func TestSnapshotsStaggered(t *testing.T) {
	for _, loops := range []int{1, 3} {
		h, err := Listen(Config{Addr: "127.0.0.1:0", Matches: 9, Loops: loops, New: noGame})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range h.loops {
			phase := map[uint32]int{}
			for _, m := range l.matches {
				phase[m.srv.ServerTick()%session.DefaultSnapshotInterval]++
			}
			if len(phase) != session.DefaultSnapshotInterval || phase[0] != phase[1] || phase[1] != phase[2] {
				t.Errorf("%d loops: a loop's matches by Snapshot phase: %v, want an even spread", loops, phase)
			}
		}
		h.Close()
	}
}

// A loop ticks its matches in one pass up to matchesPerPhase of them, a
// wake-up being dear, and in up to maxPhases passes an interval beyond,
// each holding the same share.
func TestLoopPhases(t *testing.T) {
	tests := []struct {
		matches, loops int
		phases         []int // each loop's
	}{
		{1, 1, []int{1}},
		{64, 1, []int{1}},
		{65, 1, []int{2}},
		{250, 1, []int{4}},
		{1000, 1, []int{4}},
		{250, 2, []int{2, 2}},
		{129, 2, []int{2, 1}},
	}
	for _, tt := range tests {
		h, err := Listen(Config{Addr: "10.0.0.1:4000", Matches: tt.matches, Loops: tt.loops, New: noGame,
			Listen: func(netip.AddrPort) (session.PacketConn, error) { return idleConn{make(chan struct{})}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range h.loops {
			share := make([]int, l.phases)
			for _, m := range l.matches {
				share[m.phase]++
			}
			if l.phases != tt.phases[i] || slices.Max(share)-slices.Min(share) > 1 {
				t.Errorf("%d matches on %d loops: loop %d ticks in %d phases of %v matches, want %d phases, even",
					tt.matches, tt.loops, i, l.phases, share, tt.phases[i])
			}
		}
		h.Close()
	}
}
