package session

import (
	"maps"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// lossyLink is a deterministic in-memory network that loses connected
// packets and delays every datagram by 20 to 60 ms, which reorders some.
// Handshake datagrams (shorter than a packet header) are never lost: a
// lost Welcome strands a version 1 client (§13.2), which is not what the
// tests on this link are about.
type lossyLink struct {
	rng      *rand.Rand
	loss     float64
	n        uint64
	inflight []linkDatagram
}

type linkDatagram struct {
	at       time.Time
	n        uint64
	from, to netip.AddrPort
	b        []byte
}

func (l *lossyLink) sender(from netip.AddrPort, now *time.Time) SendFunc {
	return func(to netip.AddrPort, b []byte) {
		if len(b) >= rtype.PacketHeaderSize && l.rng.Float64() < l.loss {
			return
		}
		l.n++
		at := now.Add(20*time.Millisecond + time.Duration(l.rng.Int64N(int64(40*time.Millisecond))))
		l.inflight = append(l.inflight, linkDatagram{at: at, n: l.n, from: from, to: to, b: slices.Clone(b)})
	}
}

// due removes and returns the datagrams delivered by now, in arrival order.
func (l *lossyLink) due(now time.Time) []linkDatagram {
	var out []linkDatagram
	l.inflight = slices.DeleteFunc(l.inflight, func(d linkDatagram) bool {
		if d.at.After(now) {
			return false
		}
		out = append(out, d)
		return true
	})
	slices.SortFunc(out, func(a, b linkDatagram) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return int(a.n - b.n)
	})
	return out
}

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
	client     *Client
}

// runGhosts plays a game against a specServer over a link that loses 20%
// of the packets both ways: an enemy spawns every 4 ticks and is
// destroyed 3 to 7 s later, every entity moves every tick; the last quiet
// ticks spawn and destroy nothing.
func runGhosts(t *testing.T, seed uint64, cfg ClientConfig, ticks, quiet int) *ghostRun {
	t.Helper()
	const frame = time.Second / 60
	now := t0
	link := &lossyLink{rng: rand.New(rand.NewPCG(seed, 1)), loss: 0.2}
	game := rand.New(rand.NewPCG(seed, 2))
	clientAddr := netip.MustParseAddrPort("203.0.113.30:6100")
	srv := newSpecServer(link.sender(serverAddr, &now))
	c := NewClient(serverAddr, cfg, link.sender(clientAddr, &now))
	r := &ghostRun{alive: map[uint32]bool{}, destroyed: map[uint32]time.Time{}, client: c}
	deathAt := map[uint32]int{}
	for tick := range ticks {
		now = now.Add(frame)
		for _, d := range link.due(now) {
			if d.to == serverAddr {
				srv.receive(d.b, d.from)
			} else {
				c.Receive(d.b, d.from, now)
			}
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
			if e.Kind == EventEntityExpired {
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
// still has, and with QueryEntity for the lost creations holds exactly the
// server's world once the game has been quiet a while. The same run
// without expiry keeps ghosts.
func TestSim_13_4_ExpireUnlistedRepairsGhosts(t *testing.T) {
	const ticks, quiet = 3600, 300 // a minute of play, then 5 s quiet
	cfg := ClientConfig{GiveUp: time.Hour, QueryRetry: DefaultQueryRetry}

	on := cfg
	on.ExpireUnlisted = time.Second
	r := runGhosts(t, 1, on, ticks, quiet)
	if st := r.client.State(); st != Playing {
		t.Fatalf("client is %v", st)
	}
	want := slices.Sorted(maps.Keys(r.alive))
	if got := slices.Sorted(maps.Keys(r.held)); !slices.Equal(got, want) {
		t.Errorf("client holds %v, the server %v", got, want)
	}
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
	t.Logf("%d destroyed, %d ghosts expired, longest ghost %v, largest world %d, %d QueryEntity",
		len(r.destroyed), r.expiredGhosts, r.worstGhost, r.maxWorld, r.queries)

	// Without expiry, the lost DestroyEntity messages leave ghosts (§13.4).
	off := runGhosts(t, 1, cfg, ticks, quiet)
	ghosts := 0
	for id := range off.held {
		if !off.alive[id] {
			ghosts++
		}
	}
	for id := range off.alive {
		if !off.held[id] {
			t.Errorf("without expiry the client lacks entity %d", id)
		}
	}
	if ghosts == 0 || off.expiredGhosts+off.expiredAlive != 0 {
		t.Errorf("without expiry: %d ghosts held, %d expirations; want some ghosts and none", ghosts, off.expiredGhosts+off.expiredAlive)
	}
	t.Logf("without expiry: %d ghosts held at the end", ghosts)
}
