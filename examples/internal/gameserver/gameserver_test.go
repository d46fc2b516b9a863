package gameserver

import (
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// loopback is an in-memory network between one session server driven by a
// game Server and a few clients, ticked in lock step at 60 per second.
type loopback struct {
	t *testing.T
	g *Server
	// step is the game's tick: g's Step, or another game's.
	step    func(*session.Server, time.Time)
	srv     *session.Server
	srvAddr netip.AddrPort
	clients []*session.Client
	addrs   []netip.AddrPort
	queue   []datagram
	now     time.Time
	// seen collects every client event, per client.
	seen [][]session.ClientEvent
	// drop, when set, loses the datagrams for which it returns true.
	drop func() bool
}

type datagram struct {
	from, to netip.AddrPort
	b        []byte
}

func newLoopback(t *testing.T, cfg Config) *loopback {
	g := New(cfg)
	return newLoopbackOf(t, g.Match(), g)
}

// newLoopbackOf is a loopback of match m's game; g is nil when it is not
// the example's.
func newLoopbackOf(t *testing.T, m host.Match, g *Server) *loopback {
	l := &loopback{t: t, g: g, step: m.Tick, srvAddr: netip.MustParseAddrPort("10.0.0.1:4242"), now: time.Unix(1000, 0)}
	l.srv = session.NewServer(m.Session, func(to netip.AddrPort, b []byte) {
		l.queue = append(l.queue, datagram{l.srvAddr, to, append([]byte(nil), b...)})
	})
	return l
}

func (l *loopback) addClient() int { return l.addClientWith(session.ClientConfig{}) }

func (l *loopback) addClientWith(cfg session.ClientConfig) int {
	i := len(l.clients)
	addr := netip.AddrPortFrom(netip.MustParseAddr("10.0.0.2"), uint16(5000+i))
	c := session.NewClient(l.srvAddr, cfg, func(to netip.AddrPort, b []byte) {
		l.queue = append(l.queue, datagram{addr, to, append([]byte(nil), b...)})
	})
	l.clients = append(l.clients, c)
	l.addrs = append(l.addrs, addr)
	l.seen = append(l.seen, nil)
	return i
}

func (l *loopback) deliver() {
	for len(l.queue) > 0 {
		d := l.queue[0]
		l.queue = l.queue[1:]
		if l.drop != nil && l.drop() {
			continue
		}
		if d.to == l.srvAddr {
			l.srv.Receive(d.b, d.from, l.now)
			continue
		}
		for i, a := range l.addrs {
			if a == d.to {
				l.clients[i].Receive(d.b, d.from, l.now)
			}
		}
	}
}

// run plays n ticks; each client holds actions(i, tick).
func (l *loopback) run(n int, actions func(client, tick int) rtype.Actions) {
	for k := range n {
		for i, c := range l.clients {
			c.Update(l.now)
			if c.State().Connected() {
				var a rtype.Actions
				if actions != nil {
					a = actions(i, k)
				}
				if err := c.SendInput(a, l.now); err != nil {
					l.t.Fatalf("client %d SendInput: %v", i, err)
				}
			}
		}
		l.deliver()
		l.step(l.srv, l.now)
		l.srv.Tick(l.now)
		l.deliver()
		for i, c := range l.clients {
			for ev := range c.Events() {
				l.seen[i] = append(l.seen[i], ev)
			}
		}
		l.now = l.now.Add(time.Second / game.TickRate)
	}
}

func (l *loopback) events(client int, kind session.ClientEventKind) []session.ClientEvent {
	var out []session.ClientEvent
	for _, ev := range l.seen[client] {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// §10 over the wire: a player gets its ship in its slot's colour at its
// spawn position, and every player gets every ship.
func TestSpec10_ShipsOnTheWire(t *testing.T) {
	l := newLoopback(t, Config{})
	for range game.MaxPlayers {
		l.addClient()
	}
	l.run(30, nil)
	want := map[rtype.Archetype][2]float64{}
	for slot := range game.MaxPlayers {
		x, y := game.SpawnPosition(slot)
		want[game.ShipArchetype(slot)] = [2]float64{x, y}
	}
	for i, c := range l.clients {
		if !c.State().Connected() {
			t.Fatalf("client %d: %v", i, c.State())
		}
		got := map[rtype.Archetype][2]float64{}
		for _, ev := range l.events(i, session.EventEntityCreated) {
			got[ev.Entity.Archetype] = [2]float64{ev.Entity.X, ev.Entity.Y}
		}
		for a, p := range want {
			if got[a] != p {
				t.Errorf("client %d: %v at %v, want %v", i, a, got[a], p)
			}
		}
	}
}

// §8.1, §10: the clients receive Snapshots every 3 ticks, and the ships
// move as the Inputs say (§7.1).
func TestSpec10_SnapshotsMoveShips(t *testing.T) {
	l := newLoopback(t, Config{})
	l.addClient()
	l.run(20, nil)
	ship := l.g.World().Ship(game.PlayerID(l.clients[0].ConnectionID()))
	if ship == 0 {
		t.Fatal("no ship for the client")
	}
	l.seen[0] = nil
	l.run(60, func(int, int) rtype.Actions { return rtype.ActionDown })
	var ticks []uint32
	for _, ev := range l.events(0, session.EventSnapshot) {
		ticks = append(ticks, ev.Tick)
	}
	var lastY float64
	for e := range l.clients[0].Entities() {
		if e.Archetype == rtype.ArchetypePlayerBlue {
			lastY = e.Y
		}
	}
	if len(ticks) < 19 || len(ticks) > 21 {
		t.Fatalf("%d snapshots of the ship in 60 ticks, want about 20", len(ticks))
	}
	for i := 1; i < len(ticks); i++ {
		if ticks[i]-ticks[i-1] != game.SnapshotEvery {
			t.Fatalf("snapshot ticks %v are not 3 apart", ticks)
		}
	}
	if lastY < game.SpawnY+0.8*game.ShipSpeed {
		t.Fatalf("ship at y=%v after about 1 s of Down from y=%v", lastY, game.SpawnY)
	}
}

// §7.3, §8.3, §10: when a player leaves, the others get DestroyEntity with
// reason 3 for its ship; when the server stops, reason 4 for the rest.
func TestSpec10_LeaveAndShutdownOnTheWire(t *testing.T) {
	l := newLoopback(t, Config{})
	l.addClient()
	l.addClient()
	l.run(3*game.TickRate, func(c, k int) rtype.Actions {
		if k%10 < 5 {
			return rtype.ActionShoot
		}
		return 0
	})
	if l.g.World().Phase() != game.Playing {
		t.Fatal("two players did not start a round")
	}
	var bydos int
	for _, ev := range l.events(1, session.EventEntityCreated) {
		if ev.Entity.Archetype == rtype.ArchetypeEnemyBidos {
			bydos++
		}
	}
	if bydos == 0 {
		t.Fatal("client 1 saw no Bydos in 3 s of round")
	}
	wireID := l.g.World().Ship(game.PlayerID(l.clients[0].ConnectionID()))
	l.clients[0].Close(l.now)
	l.run(5, nil)
	var reason3 bool
	for _, ev := range l.events(1, session.EventEntityDestroyed) {
		if ev.Entity.ID == wireID {
			reason3 = ev.Destroy == rtype.DestroyPlayerDisconnected
		}
	}
	if !reason3 {
		t.Fatal("client 1 did not get the ship of client 0 destroyed with reason 3")
	}

	l.srv.Shutdown(l.now)
	l.run(5, nil)
	if n := l.clients[1].NumEntities(); n != 0 {
		t.Fatalf("client 1 still knows %d entities after the game ended", n)
	}
	var reason4 int
	for _, ev := range l.events(1, session.EventEntityDestroyed) {
		if ev.Destroy == rtype.DestroyGameEnded {
			reason4++
		}
	}
	if reason4 == 0 {
		t.Fatal("no DestroyEntity with reason 4 at shutdown")
	}
}
