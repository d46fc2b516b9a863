package session_test

import (
	"maps"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// ghostRun is what one run against the spec-only server observed.
type ghostRun struct {
	alive     map[uint32]bool      // the server's world at the end
	destroyed map[uint32]time.Time // id → when the server destroyed it
	held      map[uint32]bool      // the client's entities at the end
	// expiredGhosts and expiredAlive count the EventEntityExpired for
	// entities the server had destroyed, and for ones it still had.
	expiredGhosts, expiredAlive int
	// worstGhost is the longest the client was seen holding an entity
	// the server had destroyed.
	worstGhost time.Duration
	maxWorld   int // the largest world, over 47 means several Snapshots a round
	queries    int // QueryEntity the server received
	// asked counts the QueryEntity the client sent, by id.
	asked  map[uint32]int
	client *session.Client
}

// ghostLink is each direction of runGhosts once the client is connected:
// 20% of the datagrams lost, each delayed 20 to 60 ms, one in five held
// 40 ms more so that the next ones pass it, as independent delays of 20 to
// 60 ms reorder some. The handshake crosses a perfect link: a lost Welcome
// strands a version 1 client (§13.2), which is not what these runs are
// about.
var ghostLink = netem.Params{Loss: 0.2, Delay: 40 * time.Millisecond, Jitter: 20 * time.Millisecond,
	Reorder: 0.2, ReorderDelay: 40 * time.Millisecond}

// runGhosts plays a game against a specServer over a link that loses 20%
// of the packets both ways: an enemy spawns every 4 ticks and is
// destroyed 3 to 7 s later, every entity moves every tick; the last quiet
// ticks spawn and destroy nothing.
func runGhosts(t *testing.T, seed uint64, cfg session.ClientConfig, ticks, quiet int) *ghostRun {
	t.Helper()
	sim := rtypetest.NewSim(seed)
	game := rand.New(rand.NewPCG(seed, 2))
	clientAddr := netip.MustParseAddrPort("203.0.113.30:6100")
	var srv *specServer
	send, err := sim.Attach(serverAddr, func(b []byte, from netip.AddrPort, _ time.Time) { srv.receive(b, from) })
	if err != nil {
		t.Fatal(err)
	}
	srv = newSpecServer(send)
	asked := map[uint32]int{}
	var c *session.Client
	sendC, err := sim.Attach(clientAddr, func(b []byte, from netip.AddrPort, now time.Time) { c.Receive(b, from, now) })
	if err != nil {
		t.Fatal(err)
	}
	c = session.NewClient(serverAddr, cfg, func(to netip.AddrPort, b []byte) {
		if p, err := rtype.ParsePacket(b); err == nil {
			for m := range p.Messages() {
				var q rtype.QueryEntity
				if m.Type == rtype.TypeQueryEntity && q.UnmarshalBinary(m.Payload) == nil {
					asked[q.NetworkID]++
				}
			}
		}
		sendC(to, b)
	})
	r := &ghostRun{alive: map[uint32]bool{}, destroyed: map[uint32]time.Time{}, asked: asked, client: c}
	deathAt := map[uint32]int{}
	impaired := false
	for tick := range ticks {
		sim.Advance(frame)
		now := sim.Now()
		if !impaired && c.State().Connected() {
			impairBoth(t, sim, clientAddr, ghostLink, ghostLink)
			impaired = true
		}
		srv.step()
		playing := tick < ticks-quiet
		if playing && tick%4 == 0 {
			id := srv.spawn(rtype.ArchetypeEnemyBidos, 2000, float64(game.IntN(600)))
			r.alive[id] = true
			deathAt[id] = tick + 180 + game.IntN(240)
		}
		for _, id := range slices.Sorted(maps.Keys(r.alive)) {
			if playing && deathAt[id] == tick {
				srv.destroy(id)
				delete(r.alive, id)
				r.destroyed[id] = now
				continue
			}
			srv.move(id, float64(2000-tick%2000), float64(tick%600))
		}
		r.maxWorld = max(r.maxWorld, len(r.alive))
		srv.flush()
		c.Update(now)
		for e := range c.Events() {
			if e.Kind == session.EventEntityExpired {
				if r.alive[e.Entity.ID] {
					r.expiredAlive++
				} else {
					r.expiredGhosts++
				}
			}
		}
		if c.State().Connected() {
			if err := c.SendInput(0, now); err != nil {
				t.Fatal(err)
			}
		}
		for e := range c.Entities() {
			if at, ok := r.destroyed[e.ID]; ok {
				r.worstGhost = max(r.worstGhost, now.Sub(at))
			}
		}
	}
	if !impaired {
		t.Fatal("the client never connected")
	}
	r.held = map[uint32]bool{}
	for e := range c.Entities() {
		r.held[e.ID] = true
	}
	r.queries = srv.queries
	return r
}

// §1, §8.1, §13.4, §7.4: against a server that sends each CreateEntity and
// DestroyEntity once, over a link losing 20% of the packets both ways, a
// client with ExpireUnlisted 1 s removes every ghost a lost DestroyEntity
// leaves within about that second, never removes an entity the server
// still has, and with QueryEntity for the lost creations holds the
// server's world once the game has been quiet a while, but for the
// entities whose every ask was lost. The same run without expiry keeps
// ghosts.
//
// QueryRetry asks for an id 4 times at most, and at 20% loss both ways 36%
// of the round trips fail: 1.7% of the lost creations (0.36⁴) are never
// repaired, and about one run in five ends with such an entity missing,
// whatever the network's model (this seed's run does). The client lacks no
// other: each entity it lacks, it asked for 4 times.
func TestSim_13_4_ExpireUnlistedRepairsGhosts(t *testing.T) {
	const ticks, quiet = 3600, 300 // a minute of play, then 5 s quiet
	cfg := session.ClientConfig{GiveUp: time.Hour, QueryRetry: session.DefaultQueryRetry}

	on := cfg
	on.ExpireUnlisted = time.Second
	r := runGhosts(t, 1, on, ticks, quiet)
	if st := r.client.State(); st != session.Playing {
		t.Fatalf("client is %v", st)
	}
	unrepaired := checkWorld(t, "with expiry", r)
	// A ghost goes once its last listing, at or before its destruction,
	// is a second old and the next round begins: a second, plus the
	// rounds lost before that one arrives, plus 20 to 60 ms of link.
	if r.worstGhost > 1300*time.Millisecond {
		t.Errorf("a ghost lived %v, want at most about 1 s", r.worstGhost)
	}
	// Missing 20 rounds in a row at 20% loss has odds of 1e-14.
	if r.expiredAlive != 0 {
		t.Errorf("%d entities the server still had expired", r.expiredAlive)
	}
	if r.expiredGhosts < 20 || r.maxWorld <= rtype.MaxSnapshotStates || r.queries == 0 {
		t.Errorf("the run proves little: %d ghosts expired, largest world %d, %d QueryEntity received",
			r.expiredGhosts, r.maxWorld, r.queries)
	}
	t.Logf("%d destroyed, %d ghosts expired, longest ghost %v, largest world %d, %d QueryEntity, %d creations lost with their %d asks",
		len(r.destroyed), r.expiredGhosts, r.worstGhost, r.maxWorld, r.queries, unrepaired, maxAsks)

	// Without expiry, the lost DestroyEntity messages leave ghosts (§13.4).
	off := runGhosts(t, 1, cfg, ticks, quiet)
	ghosts := 0
	for id := range off.held {
		if !off.alive[id] {
			ghosts++
		}
	}
	for id := range off.alive {
		if !off.held[id] && off.asked[id] < maxAsks {
			t.Errorf("without expiry the client lacks entity %d, asked for %d times", id, off.asked[id])
		}
	}
	if ghosts == 0 || off.expiredGhosts+off.expiredAlive != 0 {
		t.Errorf("without expiry: %d ghosts held, %d expirations; want some ghosts and none", ghosts, off.expiredGhosts+off.expiredAlive)
	}
	t.Logf("without expiry: %d ghosts held at the end", ghosts)
}

// checkWorld reports, as errors of the run named what, an entity the
// client holds that the server does not, and one the server has that the
// client lacks though it asked for it fewer than maxAsks times; it returns
// how many it lacks after maxAsks asks.
func checkWorld(t *testing.T, what string, r *ghostRun) (unrepaired int) {
	t.Helper()
	for _, id := range slices.Sorted(maps.Keys(r.alive)) {
		switch {
		case r.held[id]:
		case r.asked[id] < maxAsks:
			t.Errorf("%s: the client lacks entity %d, asked for %d times", what, id, r.asked[id])
		default:
			unrepaired++
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.held)) {
		if !r.alive[id] {
			t.Errorf("%s: the client holds entity %d, which the server destroyed", what, id)
		}
	}
	return unrepaired
}
