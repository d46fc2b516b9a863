package session

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// simNet is a deterministic in-memory network: seeded loss, duplication,
// and latency with jitter, which reorders datagrams.
type simNet struct {
	t      testing.TB
	rng    *rand.Rand
	loss   float64
	dup    float64
	base   time.Duration
	jitter time.Duration
	// late is the chance that a copy is held back much longer, up to
	// lateMax: well within or beyond the 32-packet window (§5.2).
	late     float64
	lateMax  time.Duration
	n        uint64
	inflight []simDatagram
	largest  int
	queries  int // QueryEntity messages the clients sent (§7.4)
}

type simDatagram struct {
	at       time.Time
	n        uint64
	from, to netip.AddrPort
	b        []byte
}

func (s *simNet) sender(from netip.AddrPort, now *time.Time) SendFunc {
	return func(to netip.AddrPort, b []byte) {
		s.largest = max(s.largest, len(b))
		if len(b) > rtype.MaxDatagramSize {
			s.t.Errorf("%v sent a %d-byte datagram", from, len(b))
		}
		if p, err := rtype.ParsePacket(b); err == nil && from != serverAddr {
			for m := range p.Messages() {
				if m.Type == rtype.TypeQueryEntity {
					s.queries++
				}
			}
		}
		copies := 1
		if s.rng.Float64() < s.dup {
			copies = 2
		}
		for range copies {
			if s.rng.Float64() < s.loss {
				continue
			}
			s.n++
			at := now.Add(s.base + time.Duration(s.rng.Int64N(int64(s.jitter))))
			if s.late > 0 && s.rng.Float64() < s.late {
				at = at.Add(time.Duration(s.rng.Int64N(int64(s.lateMax))))
			}
			s.inflight = append(s.inflight, simDatagram{at: at, n: s.n, from: from, to: to, b: slices.Clone(b)})
		}
	}
}

// due removes and returns the datagrams delivered by now, in arrival order.
func (s *simNet) due(now time.Time) []simDatagram {
	var out []simDatagram
	keep := s.inflight[:0]
	for _, d := range s.inflight {
		if d.at.After(now) {
			keep = append(keep, d)
		} else {
			out = append(out, d)
		}
	}
	s.inflight = keep
	slices.SortFunc(out, func(a, b simDatagram) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return int(a.n - b.n)
	})
	return out
}

// deliver hands the datagrams due by now to the server, or to the client
// of their address.
func (s *simNet) deliver(now time.Time, srv *Server, addrs []netip.AddrPort, clients []*Client) {
	for _, d := range s.due(now) {
		if d.to == serverAddr {
			srv.Receive(d.b, d.from, now)
			continue
		}
		for i, a := range addrs {
			if a == d.to {
				clients[i].Receive(d.b, d.from, now)
			}
		}
	}
}

// simResult is what the simulated game observed.
type simResult struct {
	spawned   map[uint32]time.Time // entity → spawn time
	destroyed map[uint32]time.Time // entity → destroy time
	alive     map[uint32]bool
	joined    []time.Time       // per client, when the server accepted it
	connected []time.Time       // per client, when it accepted Welcome
	created   []map[uint32]bool // per client, ids it got EventEntityCreated for
	gone      []map[uint32]bool // per client, ids it got EventEntityDestroyed for
	final     []map[uint32]bool // per client, entities held at the end
	ghosts    int               // client entity destroyed on the server > 1 s earlier
	ghostEx   string
	// worstGhost is the longest a client was seen holding an entity
	// destroyed on the server (for a spec client, counted from the later
	// of the destruction and the creation it received).
	worstGhost time.Duration
	sentQ      int // QueryEntity messages the clients sent
	askedQ     int // EventQueryEntity the server reported
	clients    []*Client
	specs      []*specPeer // spec-only clients
	specFinal  []map[uint32]bool
	server     *Server
}

// simSetup is the network and the clients of one simulation.
type simSetup struct {
	seed uint64
	loss float64
	dup  float64
	late float64
	// specs of the 4 clients are specPeers, the others Clients.
	specs int
	// quiet is the number of final ticks in which the game spawns and
	// destroys nothing, for the network to settle.
	quiet int
}

// runSim runs one server and four clients for ticks game ticks at 60 Hz.
// The game spawns an enemy every 10 ticks, moves every entity each tick and
// destroys each enemy 1.5 to 4 s after its spawn.
func runSim(t testing.TB, seed uint64, loss float64, cfg ServerConfig, ccfg ClientConfig, ticks int) *simResult {
	return runSimWith(t, simSetup{seed: seed, loss: loss, dup: 0.02}, cfg, ccfg, ticks)
}

// runSimWith runs the simulation of runSim on the network and clients of
// su.
func runSimWith(t testing.TB, su simSetup, cfg ServerConfig, ccfg ClientConfig, ticks int) *simResult {
	const frame = time.Second / 60
	now := t0
	seed := su.seed
	net := &simNet{t: t, rng: rand.New(rand.NewPCG(seed, 1)), loss: su.loss, dup: su.dup, base: 20 * time.Millisecond, jitter: 60 * time.Millisecond,
		late: su.late, lateMax: 3 * time.Second}
	game := rand.New(rand.NewPCG(seed, 2))
	srv := NewServer(cfg, net.sender(serverAddr, &now))
	r := &simResult{spawned: map[uint32]time.Time{}, destroyed: map[uint32]time.Time{}, alive: map[uint32]bool{}, server: srv}
	addrs := make([]netip.AddrPort, 4-su.specs)
	for i := range addrs {
		addrs[i] = netip.AddrPortFrom(netip.MustParseAddr("203.0.113.10"), uint16(6000+i))
		r.clients = append(r.clients, NewClient(serverAddr, ccfg, net.sender(addrs[i], &now)))
		r.joined = append(r.joined, time.Time{})
		r.connected = append(r.connected, time.Time{})
		r.created = append(r.created, map[uint32]bool{})
		r.gone = append(r.gone, map[uint32]bool{})
	}
	specAddrs := make([]netip.AddrPort, su.specs)
	for i := range specAddrs {
		specAddrs[i] = netip.AddrPortFrom(netip.MustParseAddr("203.0.113.20"), uint16(7000+i))
		r.specs = append(r.specs, newSpecPeer(serverAddr, net.sender(specAddrs[i], &now)))
	}
	specSince := make([]map[uint32]time.Time, su.specs) // per spec client, since when it holds each id
	for i := range specSince {
		specSince[i] = map[uint32]time.Time{}
	}
	deathAt := map[uint32]int{}
	for tick := 0; tick < ticks; tick++ {
		now = now.Add(frame)
		for _, d := range net.due(now) {
			if d.to == serverAddr {
				srv.Receive(d.b, d.from, now)
				continue
			}
			for i, a := range addrs {
				if a == d.to {
					r.clients[i].Receive(d.b, d.from, now)
				}
			}
			for i, a := range specAddrs {
				if a == d.to {
					r.specs[i].receive(d.b, d.from)
				}
			}
		}
		for e := range srv.Events() {
			if e.Kind == EventQueryEntity {
				r.askedQ++
			}
			if e.Kind == EventPlayerJoined {
				p, _ := srv.ConnStats(e.Conn)
				if i := slices.Index(addrs, p.Addr); i >= 0 {
					r.joined[i] = now
				}
				id, err := srv.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue+rtype.Archetype(e.Slot), 150, 150+100*float64(e.Slot), 0)
				if err != nil {
					t.Fatal(err)
				}
				r.spawned[id], r.alive[id] = now, true
			}
		}
		playing := tick < ticks-su.quiet
		if playing && tick%10 == 0 {
			id := srv.Spawn(rtype.ArchetypeEnemyBidos, 2000, float64(game.IntN(600)), 0)
			r.spawned[id], r.alive[id] = now, true
			deathAt[id] = tick + 90 + game.IntN(150)
		}
		for id := range r.alive {
			if playing && deathAt[id] == tick {
				if err := srv.Destroy(id, rtype.DestroyGameplay); err != nil {
					t.Fatal(err)
				}
				delete(r.alive, id)
				r.destroyed[id] = now
				continue
			}
			srv.Move(id, float64(2000-tick), float64(tick%600), 0)
		}
		srv.Tick(now)
		for i, c := range r.clients {
			c.Update(now)
			for e := range c.Events() {
				switch e.Kind {
				case EventEntityCreated:
					r.created[i][e.Entity.ID] = true
				case EventEntityDestroyed:
					r.gone[i][e.Entity.ID] = true
				case EventConnected:
					r.connected[i] = now
				}
			}
			if c.State().Connected() {
				c.SendInput(rtype.Actions(tick%32)&^rtype.ActionsReserved, now)
			}
			if tick%30 == 0 {
				for e := range c.Entities() {
					if at, ok := r.destroyed[e.ID]; ok {
						r.worstGhost = max(r.worstGhost, now.Sub(at))
					}
					if at, ok := r.destroyed[e.ID]; ok && now.Sub(at) > time.Second {
						r.ghosts++
						r.ghostEx = fmt.Sprintf("client %d holds %d destroyed %v earlier", i, e.ID, now.Sub(at))
					}
				}
			}
		}
		for i, p := range r.specs {
			p.frame(now, rtype.Actions(tick%32)&^rtype.ActionsReserved)
			if p.err != nil {
				t.Fatalf("spec client %d: %v", i, p.err)
			}
			// A copy of a creation may arrive as late as the 32-packet
			// window allows (§5.2), after the destruction: no server can
			// prevent that ghost, only remove it, so its second counts
			// from the later of the destruction and the creation.
			for id := range p.ents {
				if _, ok := specSince[i][id]; !ok {
					specSince[i][id] = now
				}
				if at, ok := r.destroyed[id]; ok {
					r.worstGhost = max(r.worstGhost, min(now.Sub(at), now.Sub(specSince[i][id])))
				}
				if at, ok := r.destroyed[id]; ok && now.Sub(at) > time.Second && now.Sub(specSince[i][id]) > time.Second {
					r.ghosts++
					r.ghostEx = fmt.Sprintf("spec client %d holds %d destroyed %v earlier, created %v earlier", i, id, now.Sub(at), now.Sub(specSince[i][id]))
				}
			}
			maps.DeleteFunc(specSince[i], func(id uint32, _ time.Time) bool { return !p.ents[id] })
		}
	}
	for _, p := range r.specs {
		r.specFinal = append(r.specFinal, maps.Clone(p.ents))
	}
	for _, c := range r.clients {
		held := map[uint32]bool{}
		for e := range c.Entities() {
			held[e.ID] = true
		}
		r.final = append(r.final, held)
	}
	r.sentQ = net.queries
	return r
}

// §13.4 with reliable events on: with 20% loss both ways, every
// CreateEntity and DestroyEntity reaches every client, and no client ever
// holds an entity destroyed more than 1 s earlier.
func TestSim_13_4_ReliableEventsUnderLoss(t *testing.T) {
	r := runSim(t, 1, 0.2, ServerConfig{}, ClientConfig{GiveUp: time.Hour}, 4000)
	end := t0.Add(4000 * time.Second / 60)
	for i, c := range r.clients {
		if !c.State().Connected() || r.joined[i].IsZero() {
			t.Fatalf("client %d is %v", i, c.State())
		}
		missedCreate, missedDestroy := 0, 0
		for id, at := range r.spawned {
			// Every entity alive a second after the client connected.
			if d, ok := r.destroyed[id]; ok && d.Before(r.connected[i].Add(time.Second)) {
				continue
			}
			if !r.created[i][id] && end.Sub(at) > time.Second {
				missedCreate++
			}
		}
		for id, at := range r.destroyed {
			if at.After(r.connected[i].Add(time.Second)) && end.Sub(at) > time.Second && !r.gone[i][id] {
				missedDestroy++
			}
		}
		if missedCreate+missedDestroy > 0 {
			t.Errorf("client %d missed %d creations and %d destructions of %d entities", i, missedCreate, missedDestroy, len(r.spawned))
		}
	}
	if r.ghosts > 0 {
		t.Errorf("%d ghosts, e.g. %s", r.ghosts, r.ghostEx)
	}
	st := r.server.Stats()
	if st.Resends == 0 || len(r.destroyed) < 300 {
		t.Errorf("the run did not exercise loss: %d resends, %d destroyed", st.Resends, len(r.destroyed))
	}
	for p := range r.server.AllConnStats() {
		if l := p.Loss(); l < 0.1 || l > 0.3 {
			t.Errorf("player %d: measured loss %.2f, want about 0.2", p.Conn, l)
		}
	}
	t.Logf("%d entities, %d resends, server %+v", len(r.spawned), st.Resends, st.Drops)
}

// §13.4 with reliable events off (version 1): QueryEntity repairs every
// lost creation: at the end every client holds every entity alive for more
// than 2 s. Asking once per id (§7.4, the default) cannot do it at 20% loss
// both ways, where about a third of the queries or their answers are lost:
// the clients opt in to asking again every DefaultQueryRetry.
func TestSim_7_4_QueryEntityRepairsLostCreations(t *testing.T) {
	r := runSim(t, 2, 0.2, ServerConfig{DisableReliableEvents: true}, ClientConfig{GiveUp: time.Hour, QueryRetry: DefaultQueryRetry}, 4000)
	end := t0.Add(4000 * time.Second / 60)
	lostCreates := 0
	for i := range r.clients {
		for id := range r.alive {
			if end.Sub(r.spawned[id]) > 2*time.Second && !r.final[i][id] {
				t.Errorf("client %d lacks entity %d, alive since %v", i, id, end.Sub(r.spawned[id]))
			}
		}
		for id := range r.spawned {
			if !r.created[i][id] {
				lostCreates++
			}
		}
	}
	// The repair is QueryEntity's doing: the clients sent some, and the
	// server received them.
	if r.sentQ == 0 || r.askedQ == 0 {
		t.Errorf("clients sent %d QueryEntity, the server got %d: nothing was repaired by QueryEntity", r.sentQ, r.askedQ)
	}
	if r.server.Stats().Resends != 0 {
		t.Errorf("resends with reliable events off")
	}
	if lostCreates == 0 {
		t.Errorf("no creation was lost: the test proves nothing")
	}
	t.Logf("%d creations lost, %d QueryEntity sent, %d received", lostCreates, r.sentQ, r.askedQ)
}

// §5.2, §8.2, §8.3, §13.4: two clients written from the spec alone
// (specPeer: no QueryEntity, no memory of destroyed ids, no serverTick)
// play next to two Clients, on a network that loses 20% of the copies,
// duplicates 20% of the datagrams, and delays each copy on its own, a few
// ticks or, one copy in ten, up to 3 s, well within or beyond the 32-packet
// window. With reliable events on, no client ever holds an entity destroyed
// more than 1 s earlier, and once the game stops changing the world, every
// client holds exactly the server's entities.
func TestSim_13_4_SpecOnlyClientUnderLossDupDelay(t *testing.T) {
	const ticks, quiet = 4000, 600
	r := runSimWith(t, simSetup{seed: 3, loss: 0.2, dup: 0.2, late: 0.1, specs: 2, quiet: quiet}, ServerConfig{}, ClientConfig{GiveUp: time.Hour}, ticks)
	want := slices.Sorted(maps.Keys(r.alive))
	for i, p := range r.specs {
		if p.conn == 0 {
			t.Fatalf("spec client %d never connected", i)
		}
		if got := slices.Sorted(maps.Keys(r.specFinal[i])); !slices.Equal(got, want) {
			t.Errorf("spec client %d holds %v, the server %v", i, got, want)
		}
	}
	for i, c := range r.clients {
		if !c.State().Connected() {
			t.Fatalf("client %d is %v", i, c.State())
		}
		if got := slices.Sorted(maps.Keys(r.final[i])); !slices.Equal(got, want) {
			t.Errorf("client %d holds %v, the server %v", i, got, want)
		}
	}
	if r.ghosts > 0 {
		t.Errorf("%d ghosts, e.g. %s", r.ghosts, r.ghostEx)
	}
	if n := r.server.NumPlayers(); n != 4 {
		t.Errorf("%d players at the end, want 4", n)
	}
	st := r.server.Stats()
	if st.Resends == 0 || len(r.destroyed) < 300 || len(want) == 0 {
		t.Errorf("the run did not exercise loss: %d resends, %d destroyed, %d alive", st.Resends, len(r.destroyed), len(want))
	}
	t.Logf("%d entities, %d alive, %d resends, %d redundant DestroyEntity, longest ghost %v", len(r.spawned), len(want), st.Resends, st.RedundantDestroys, r.worstGhost)
}

// §8.3, §13.4: the spec-only simulation's bound holds on every network the
// seeds draw, not on one: with 20% loss, 20% duplication and one copy in
// ten delayed up to 3 s, a DestroyEntity can be lost several times in a
// row, and its second copy, sent without waiting for an ack, keeps every
// ghost under 1 s.
//
// RTYPE_SIM_SEEDS=n sweeps seeds 1 to n instead of 12.
func TestSim_13_4_SpecOnlyClientSeedSweep(t *testing.T) {
	const ticks, quiet = 4000, 600
	seeds := uint64(12)
	if n, err := strconv.ParseUint(os.Getenv("RTYPE_SIM_SEEDS"), 10, 64); err == nil && n > 0 {
		seeds = n
	}
	var worst time.Duration
	redundant := uint64(0)
	for seed := uint64(1); seed <= seeds; seed++ {
		r := runSimWith(t, simSetup{seed: seed, loss: 0.2, dup: 0.2, late: 0.1, specs: 2, quiet: quiet}, ServerConfig{}, ClientConfig{GiveUp: time.Hour}, ticks)
		if r.ghosts > 0 {
			t.Errorf("seed %d: %d ghosts, e.g. %s", seed, r.ghosts, r.ghostEx)
		}
		for i, p := range r.specs {
			if p.conn == 0 {
				t.Errorf("seed %d: spec client %d never connected", seed, i)
			}
		}
		worst = max(worst, r.worstGhost)
		redundant += r.server.Stats().RedundantDestroys
	}
	if redundant == 0 || worst == 0 {
		t.Errorf("no DestroyEntity copy sent (%d) or no ghost seen (%v): the sweep proves nothing", redundant, worst)
	}
	t.Logf("seeds 1-%d: longest ghost %v, %d redundant DestroyEntity", seeds, worst, redundant)
}
