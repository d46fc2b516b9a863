package session_test

import (
	"encoding/binary"
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
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// The simulations run on rtypetest's Sim: every direction between the
// server and a client is a netem link drawing from the run's seed, so a
// failing seed repeats exactly, and the Sim's clock is the game's.

// serverAddr is the server's address in the simulations, from a
// documentation range: nothing is ever sent there.
var serverAddr = netip.MustParseAddrPort("192.0.2.1:4242")

// frame is one game tick at 60 Hz.
const frame = time.Second / 60

// simKey is the server's ValidationKey for seed, so that connection ids,
// and with them a whole run, repeat for a seed (§4.3, §12).
func simKey(seed uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("session sim "), seed)
}

// wireCheck watches what the endpoints of a simulation send: no datagram
// over 548 bytes (§2.2), and the QueryEntity messages the clients send
// (§7.4).
type wireCheck struct {
	t       testing.TB
	queries int
	// asked counts each client's QueryEntity by id.
	asked map[netip.AddrPort]map[uint32]int
}

// maxAsks is how many times QueryRetry asks for an id at most (its doc).
const maxAsks = 4

// attach puts receive at addr on sim and returns the SendFunc of addr,
// which w watches.
func (w *wireCheck) attach(sim *rtypetest.Sim, addr netip.AddrPort, receive func(b []byte, from netip.AddrPort, now time.Time)) session.SendFunc {
	w.t.Helper()
	send, err := sim.Attach(addr, receive)
	if err != nil {
		w.t.Fatal(err)
	}
	return func(to netip.AddrPort, b []byte) {
		if len(b) > rtype.MaxDatagramSize {
			w.t.Errorf("%v sent a %d-byte datagram", addr, len(b))
		}
		if p, err := rtype.ParsePacket(b); err == nil && addr != serverAddr {
			for m := range p.Messages() {
				var q rtype.QueryEntity
				if m.Type == rtype.TypeQueryEntity && q.UnmarshalBinary(m.Payload) == nil {
					w.queries++
					if w.asked[addr] == nil {
						w.asked[addr] = map[uint32]int{}
					}
					w.asked[addr][q.NetworkID]++
				}
			}
		}
		send(to, b)
	}
}

// impairBoth sets the model of the direction from a to the server to up,
// and of the direction back to down.
func impairBoth(t testing.TB, sim *rtypetest.Sim, a netip.AddrPort, up, down netem.Params) {
	t.Helper()
	if err := sim.Impair(a, serverAddr, up); err != nil {
		t.Fatal(err)
	}
	if err := sim.Impair(serverAddr, a, down); err != nil {
		t.Fatal(err)
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
	sentQ      int              // QueryEntity messages the clients sent
	asked      []map[uint32]int // per client, its QueryEntity by id
	askedQ     int              // EventQueryEntity the server reported
	clients    []*session.Client
	specs      []*session.SpecPeer // spec-only clients
	specFinal  []map[uint32]bool
	server     *session.Server
	end        time.Time // the Sim's time at the end
}

// simSetup is the network and the clients of one simulation.
type simSetup struct {
	seed uint64
	// loss is the share of the copies each direction loses, a datagram
	// duplicated (dup) being two copies lost one by one (see link).
	loss, dup float64
	// late is the share of datagrams each direction holds back long, by a
	// delay of its own drawn from the seed (see link); 0 keeps the short
	// reordering of a jittery path.
	late float64
	// specs of the 4 clients are SpecPeers, the others Clients.
	specs int
	// quiet is the number of final ticks in which the game spawns and
	// destroys nothing, for the network to settle.
	quiet int
}

// lateMax bounds the delay of a late copy: well beyond the 32-packet
// window (§5.2) at the 20 to 60 packets a second each side sends.
const lateMax = 3 * time.Second

// link is the model of the k-th of the n directions of a run, u in [0, 1)
// drawn from the seed.
//
// Loss: netem loses a datagram before it duplicates it, so both copies
// share its fate; a network that duplicates first and loses each copy on
// its own, which is what loss and dup describe, delivers no copy of
// loss·(1−dup+dup·loss) of the datagrams (16.8% for 20% and 20%): that is
// the Loss of the link, and Dup makes the second copy, which leaves right
// after the first.
//
// Delay and reordering: each datagram takes 20 to 80 ms; netem keeps the
// order within that jitter, so reordering is its Reorder stage. With late
// 0, one datagram in five is held 60 ms more and the next few pass it,
// about what independent delays of 20 to 80 ms do at these packet rates.
// With late > 0, that share is held longer instead, by a delay each
// direction has of its own, the n directions of a run spread over 0 to
// lateMax: a few ticks for some, well within the 32-packet window (§5.2),
// beyond it for others.
func (su simSetup) link(k, n int, u float64) netem.Params {
	p := netem.Params{Loss: su.loss * (1 - su.dup + su.dup*su.loss), Dup: su.dup,
		Delay: 50 * time.Millisecond, Jitter: 30 * time.Millisecond, Reorder: 0.2, ReorderDelay: 60 * time.Millisecond}
	if su.late > 0 {
		p.Reorder = su.late
		p.ReorderDelay = max(time.Duration((float64(k)+u)/float64(n)*float64(lateMax)), time.Millisecond)
	}
	return p
}

// runSim runs one server and four clients for ticks game ticks at 60 Hz.
// The game spawns an enemy every 10 ticks, moves every entity each tick and
// destroys each enemy 1.5 to 4 s after its spawn.
func runSim(t testing.TB, seed uint64, loss float64, cfg session.ServerConfig, ccfg session.ClientConfig, ticks int) *simResult {
	return runSimWith(t, simSetup{seed: seed, loss: loss, dup: 0.02}, cfg, ccfg, ticks)
}

// runSimWith runs the simulation of runSim on the network and clients of
// su.
func runSimWith(t testing.TB, su simSetup, cfg session.ServerConfig, ccfg session.ClientConfig, ticks int) *simResult {
	t.Helper()
	sim := rtypetest.NewSim(su.seed)
	w := &wireCheck{t: t, asked: map[netip.AddrPort]map[uint32]int{}}
	game := rand.New(rand.NewPCG(su.seed, 2))
	links := rand.New(rand.NewPCG(su.seed, 3))
	if cfg.ValidationKey == nil {
		cfg.ValidationKey = simKey(su.seed)
	}
	var srv *session.Server
	srv = session.NewServer(cfg, w.attach(sim, serverAddr, func(b []byte, from netip.AddrPort, now time.Time) { srv.Receive(b, from, now) }))
	r := &simResult{spawned: map[uint32]time.Time{}, destroyed: map[uint32]time.Time{}, alive: map[uint32]bool{}, server: srv}
	addrs := make([]netip.AddrPort, 4-su.specs)
	for i := range addrs {
		addrs[i] = netip.AddrPortFrom(netip.MustParseAddr("203.0.113.10"), uint16(6000+i))
		var c *session.Client
		c = session.NewClient(serverAddr, ccfg, w.attach(sim, addrs[i], func(b []byte, from netip.AddrPort, now time.Time) { c.Receive(b, from, now) }))
		r.clients = append(r.clients, c)
		r.joined = append(r.joined, time.Time{})
		r.connected = append(r.connected, time.Time{})
		r.created = append(r.created, map[uint32]bool{})
		r.gone = append(r.gone, map[uint32]bool{})
	}
	specAddrs := make([]netip.AddrPort, su.specs)
	for i := range specAddrs {
		specAddrs[i] = netip.AddrPortFrom(netip.MustParseAddr("203.0.113.20"), uint16(7000+i))
		var p *session.SpecPeer
		p = session.NewSpecPeer(serverAddr, w.attach(sim, specAddrs[i], func(b []byte, from netip.AddrPort, _ time.Time) { p.Receive(b, from) }))
		r.specs = append(r.specs, p)
	}
	// Both directions of every client, in an order the seed shuffles.
	all := append(slices.Clone(addrs), specAddrs...)
	order := links.Perm(2 * len(all))
	for i, a := range all {
		impairBoth(t, sim, a, su.link(order[2*i], len(order), links.Float64()), su.link(order[2*i+1], len(order), links.Float64()))
	}
	specSince := make([]map[uint32]time.Time, su.specs) // per spec client, since when it holds each id
	for i := range specSince {
		specSince[i] = map[uint32]time.Time{}
	}
	deathAt := map[uint32]int{}
	for tick := 0; tick < ticks; tick++ {
		sim.Advance(frame)
		now := sim.Now()
		for e := range srv.Events() {
			if e.Kind == session.EventQueryEntity {
				r.askedQ++
			}
			if e.Kind == session.EventPlayerJoined {
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
				case session.EventEntityCreated:
					r.created[i][e.Entity.ID] = true
				case session.EventEntityDestroyed:
					r.gone[i][e.Entity.ID] = true
				case session.EventConnected:
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
			if err := p.Frame(now, rtype.Actions(tick%32)&^rtype.ActionsReserved); err != nil {
				t.Fatalf("spec client %d: %v", i, err)
			}
			// A copy of a creation may arrive as late as the 32-packet
			// window allows (§5.2), after the destruction: no server can
			// prevent that ghost, only remove it, so its second counts
			// from the later of the destruction and the creation.
			ents := p.Entities()
			for id := range ents {
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
			maps.DeleteFunc(specSince[i], func(id uint32, _ time.Time) bool { return !ents[id] })
		}
	}
	for _, p := range r.specs {
		r.specFinal = append(r.specFinal, maps.Clone(p.Entities()))
	}
	for _, c := range r.clients {
		held := map[uint32]bool{}
		for e := range c.Entities() {
			held[e.ID] = true
		}
		r.final = append(r.final, held)
	}
	r.sentQ = w.queries
	for _, a := range addrs {
		r.asked = append(r.asked, w.asked[a])
	}
	r.end = sim.Now()
	return r
}

// §13.4 with reliable events on: with 20% loss both ways, every
// CreateEntity and DestroyEntity reaches every client, and no client ever
// holds an entity destroyed more than 1 s earlier.
func TestSim_13_4_ReliableEventsUnderLoss(t *testing.T) {
	r := runSim(t, 1, 0.2, session.ServerConfig{}, session.ClientConfig{GiveUp: time.Hour}, 4000)
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
			if !r.created[i][id] && r.end.Sub(at) > time.Second {
				missedCreate++
			}
		}
		for id, at := range r.destroyed {
			if at.After(r.connected[i].Add(time.Second)) && r.end.Sub(at) > time.Second && !r.gone[i][id] {
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

// §13.4 with reliable events off (version 1): QueryEntity repairs the
// lost creations: at the end every client holds every entity alive for more
// than 2 s, but for those whose every ask was lost. Asking once per id
// (§7.4, the default) cannot do it at 20% loss both ways, where about a
// third of the queries or their answers are lost: the clients opt in to
// asking again, after DefaultQueryRetry, then twice and four times that.
//
// Those 4 asks are QueryRetry's most, the fourth 3.5 s after the first;
// with 36% of the round trips failing, 1.7% of the lost creations (0.36⁴)
// are never repaired, and in about one run in seven, whatever the
// network's model, a client ends lacking such an entity. It lacks no
// other: each entity it lacks, it asked for 4 times, or 3 if it is not 4 s
// old, where a client asking once would have asked once. One run in seven
// of those clients holds all the same, so three seeds are played.
func TestSim_7_4_QueryEntityRepairsLostCreations(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		r := runSim(t, seed, 0.2, session.ServerConfig{ReliableEvents: session.Off}, session.ClientConfig{GiveUp: time.Hour, QueryRetry: session.DefaultQueryRetry}, 4000)
		lostCreates, unrepaired := 0, 0
		for i := range r.clients {
			for _, id := range slices.Sorted(maps.Keys(r.alive)) {
				age := r.end.Sub(r.spawned[id])
				asks := maxAsks
				if age <= 4*time.Second {
					asks--
				}
				switch {
				case age <= 2*time.Second || r.final[i][id]:
				case r.asked[i][id] < asks:
					t.Errorf("seed %d: client %d lacks entity %d, alive since %v, asked for %d times", seed, i, id, age, r.asked[i][id])
				default:
					unrepaired++
				}
			}
			for id := range r.spawned {
				if !r.created[i][id] {
					lostCreates++
				}
			}
		}
		// The repair is QueryEntity's doing: the clients sent some, and
		// the server received them.
		if r.sentQ == 0 || r.askedQ == 0 {
			t.Errorf("seed %d: clients sent %d QueryEntity, the server got %d: nothing was repaired by QueryEntity", seed, r.sentQ, r.askedQ)
		}
		if r.server.Stats().Resends != 0 {
			t.Errorf("seed %d: resends with reliable events off", seed)
		}
		if lostCreates == 0 {
			t.Errorf("seed %d: no creation was lost: the test proves nothing", seed)
		}
		t.Logf("seed %d: %d creations lost, %d QueryEntity sent, %d received, %d creations lost with every ask", seed, lostCreates, r.sentQ, r.askedQ, unrepaired)
	}
}

// §5.2, §8.2, §8.3, §13.4: two clients written from the spec alone
// (SpecPeer: no QueryEntity, no memory of destroyed ids, no serverTick)
// play next to two Clients, on a network that loses 20% of the datagrams,
// duplicates 20%, delays each by 20 to 80 ms and holds one in ten back
// longer, each direction by a delay of its own from a few ticks to 3 s,
// well within or beyond the 32-packet window. With reliable events on, no
// client ever holds an entity destroyed more than 1 s earlier, and once
// the game stops changing the world, every client holds exactly the
// server's entities.
func TestSim_13_4_SpecOnlyClientUnderLossDupDelay(t *testing.T) {
	const ticks, quiet = 4000, 600
	r := runSimWith(t, simSetup{seed: 3, loss: 0.2, dup: 0.2, late: 0.1, specs: 2, quiet: quiet}, session.ServerConfig{}, session.ClientConfig{GiveUp: time.Hour}, ticks)
	want := slices.Sorted(maps.Keys(r.alive))
	for i, p := range r.specs {
		if p.Conn() == 0 {
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
// seeds draw, not on one: with 20% loss, 20% duplication and one datagram
// in ten held back up to 3 s, a DestroyEntity can be lost several times in
// a row, and its second copy, sent without waiting for an ack, keeps every
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
		r := runSimWith(t, simSetup{seed: seed, loss: 0.2, dup: 0.2, late: 0.1, specs: 2, quiet: quiet}, session.ServerConfig{}, session.ClientConfig{GiveUp: time.Hour}, ticks)
		if r.ghosts > 0 {
			t.Errorf("seed %d: %d ghosts, e.g. %s", seed, r.ghosts, r.ghostEx)
		}
		for i, p := range r.specs {
			if p.Conn() == 0 {
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
