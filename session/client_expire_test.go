package session

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §10: ExpireUnlisted in server ticks at 60 per second, rounded up.
func TestClient_10_UnlistedTicks(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int32
	}{
		{0, 0},
		{-time.Second, 0},
		{time.Nanosecond, 1},
		{16 * time.Millisecond, 1},
		{17 * time.Millisecond, 2},
		{50 * time.Millisecond, 3},
		{time.Second, 60},
		{time.Second + time.Nanosecond, 61},
		{time.Hour, 216000},
		{math.MaxInt64, math.MaxInt32},
	}
	for _, tt := range tests {
		if got := unlistedTicks(tt.d); got != tt.want {
			t.Errorf("unlistedTicks(%v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}

// expStep is one server packet, at ms milliseconds after the Welcome.
type expStep struct {
	ms  int
	msg rtype.Message
}

// rounds is n Snapshot rounds every 3 ticks from tick on, one every 50 ms
// from ms on, each listing ids.
func rounds(ms int, tick uint32, n int, ids ...uint32) []expStep {
	var s []expStep
	for k := range n {
		s = append(s, expStep{ms + 50*k, snapshot(tick+uint32(3*k), ids...)})
	}
	return s
}

func at(ms int, m rtype.Message) []expStep { return []expStep{{ms, m}} }

func steps(parts ...[]expStep) []expStep { return slices.Concat(parts...) }

type expired struct {
	ID   uint32
	Tick uint32
}

// runExpiry plays the steps to a client connected at t0 and returns the
// expirations reported, the QueryEntity ids sent and the entities held.
func runExpiry(t *testing.T, cfg ClientConfig, ss []expStep) (exp []expired, queries, known []uint32) {
	t.Helper()
	c, cp := connectedClient(t, cfg)
	for i, s := range ss {
		now := t0.Add(time.Duration(s.ms) * time.Millisecond)
		c.Receive(srv(t, uint32(i+1), s.msg), serverAddr, now)
		c.Update(now)
		if err := c.SendInput(0, now); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		for _, m := range ofType(t, cp.take(), rtype.TypeQueryEntity) {
			var q rtype.QueryEntity
			if err := q.UnmarshalBinary(m.Payload); err != nil {
				t.Fatal(err)
			}
			queries = append(queries, q.NetworkID)
		}
		for _, e := range events(c, EventEntityExpired) {
			exp = append(exp, expired{e.Entity.ID, e.Tick})
			if !e.At.Equal(now) || e.Entity.Archetype != rtype.ArchetypeEnemyBidos {
				t.Errorf("%v at %v, want the entity as created, at %v", e, e.At, now)
			}
		}
	}
	for e := range c.Entities() {
		known = append(known, e.ID)
	}
	slices.Sort(known)
	return exp, queries, known
}

// §8.1, §13.4, §7.4, §8.3: with ExpireUnlisted, an entity no Snapshot
// listed for that long, while rounds of Snapshots with newer serverTicks
// kept arriving, expires; a stall of the Snapshots does not count, and
// an expired id that a newer Snapshot lists is queried again.
func TestClient_13_4_ExpireUnlisted(t *testing.T) {
	second := ClientConfig{ExpireUnlisted: time.Second} // 60 ticks
	both := steps(at(0, create(1, 0)), at(0, create(2, 0)))
	// Listed up to tick 60, then only 2 listed from tick 63 on.
	unlisted := func(n int) []expStep { return steps(both, rounds(50, 3, 20, 1, 2), rounds(1050, 63, n, 2)) }
	wrap := uint32(math.MaxUint32 - 40) // rounds from here cross 0
	tests := []struct {
		name    string
		cfg     ClientConfig
		steps   []expStep
		expired []expired
		queries []uint32
		known   []uint32
	}{
		{"listed every round: kept", second, steps(both, rounds(50, 3, 200, 1, 2)), nil, nil, []uint32{1, 2}},
		{"listed in the second message of each round: kept", second,
			steps(both, interleave(rounds(50, 3, 100, 2), rounds(50, 3, 100, 1))), nil, nil, []uint32{1, 2}},
		{"no Snapshot at all: kept", second,
			steps(both, at(9000, rtype.Pong{Timestamp: 1})), nil, nil, []uint32{1, 2}},
		{"unlisted for 57 ticks: kept", second,
			steps(unlisted(19), rounds(2050, 120, 60, 1, 2)), nil, nil, []uint32{1, 2}},
		{"unlisted for 57 ticks, then listed by the second message of a round: kept", second,
			steps(unlisted(19), at(2000, snapshot(120, 2)), at(2000, snapshot(120, 1)), rounds(2050, 123, 40, 1, 2)), nil, nil, []uint32{1, 2}},
		{"unlisted for 59 ticks: kept", second,
			steps(unlisted(19), at(2000, snapshot(119, 2)), rounds(2050, 122, 60, 1, 2)), nil, nil, []uint32{1, 2}},
		{"unlisted for 60 ticks: expired when the next round begins", second,
			unlisted(21), []expired{{1, 60}}, nil, []uint32{2}},
		{"unlisted for 60 ticks, next round not begun: kept", second,
			unlisted(20), nil, nil, []uint32{1, 2}},
		{"unlisted long: expired once", second,
			unlisted(200), []expired{{1, 60}}, nil, []uint32{2}},
		// Counting starts with the first round, tick 3: expired once the
		// round of tick 63 is over.
		{"never listed after its CreateEntity", second,
			steps(both, rounds(50, 3, 22, 2)), []expired{{1, 0}}, nil, []uint32{2}},
		{"never listed after its CreateEntity, one round less", second,
			steps(both, rounds(50, 3, 21, 2)), nil, nil, []uint32{1, 2}},
		{"expired, then listed by a newer Snapshot: queried and back", second,
			steps(unlisted(21), at(2100, snapshot(126, 1, 2)), at(2150, create(1, 127)), rounds(2200, 129, 100, 1, 2)),
			[]expired{{1, 60}}, []uint32{1}, []uint32{1, 2}},
		{"expired, then listed by a late Snapshot: not queried", second,
			steps(unlisted(21), at(2100, snapshot(60, 1, 2)), rounds(2150, 126, 10, 2)),
			[]expired{{1, 60}}, nil, []uint32{2}},
		{"expired, then a late CreateEntity: ignored", second,
			steps(unlisted(21), at(2100, create(1, 30)), rounds(2150, 126, 10, 2)),
			[]expired{{1, 60}}, nil, []uint32{2}},
		{"destroyed, then listed by a newer Snapshot: not queried", second,
			steps(both, rounds(50, 3, 10, 1, 2), at(600, rtype.DestroyEntity{ServerTick: 31, NetworkID: 1, Reason: 1}), rounds(650, 33, 10, 1, 2)),
			nil, nil, []uint32{2}},
		{"stall of 300 ticks, counted as 30, then 27 ticks of rounds: kept", second,
			steps(both, rounds(50, 3, 10, 1, 2), rounds(5500, 330, 11, 2)), nil, nil, []uint32{1, 2}},
		{"stall of 300 ticks, counted as 30, then 30 ticks of rounds: expired", second,
			steps(both, rounds(50, 3, 10, 1, 2), rounds(5500, 330, 12, 2)), []expired{{1, 30}}, nil, []uint32{2}},
		{"tick wrap: kept", second,
			steps(at(0, create(1, wrap)), at(0, create(2, wrap)), rounds(50, wrap+3, 20, 1, 2), rounds(1050, wrap+63, 19, 2), rounds(2000, wrap+120, 40, 1, 2)),
			nil, nil, []uint32{1, 2}},
		{"tick wrap: expired", second,
			steps(at(0, create(1, wrap)), at(0, create(2, wrap)), rounds(50, wrap+3, 20, 1, 2), rounds(1050, wrap+63, 21, 2)),
			[]expired{{1, wrap + 60}}, nil, []uint32{2}},
		{"off by default", ClientConfig{}, unlisted(200), nil, nil, []uint32{1, 2}},
		{"negative is off", ClientConfig{ExpireUnlisted: -time.Second}, unlisted(200), nil, nil, []uint32{1, 2}},
		{"50 ms: three ticks unlisted expire", ClientConfig{ExpireUnlisted: 50 * time.Millisecond},
			steps(both, rounds(50, 3, 2, 1, 2), rounds(150, 9, 2, 2)), []expired{{1, 6}}, nil, []uint32{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp, queries, known := runExpiry(t, tt.cfg, tt.steps)
			if d := cmp.Diff(tt.expired, exp); d != "" {
				t.Errorf("EventEntityExpired (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.queries, queries); d != "" {
				t.Errorf("QueryEntity (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.known, known); d != "" {
				t.Errorf("entities (-want +got):\n%s", d)
			}
		})
	}
}

// interleave merges two lists of steps, a's first at each position.
func interleave(a, b []expStep) []expStep {
	var s []expStep
	for i := range max(len(a), len(b)) {
		if i < len(a) {
			s = append(s, a[i])
		}
		if i < len(b) {
			s = append(s, b[i])
		}
	}
	return s
}

// clientExpiring is a connected client with ExpireUnlisted 1 s that knows
// a world of 100 entities, and a function that delivers the next round of
// Snapshots, 47, 47 and 6 states each in its own packet (§8.1), plus the
// CreateEntity of one new entity; each round the oldest entity stops being
// listed, so that one expires per round once the first second is over.
func clientExpiring(t testing.TB) (*Client, func()) {
	const world = 100
	c := NewClient(serverAddr, ClientConfig{ExpireUnlisted: time.Second}, discard)
	c.Update(t0)
	c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
	seq := uint32(0)
	next := uint32(1) // the next id to create
	createPkt := packet(t, rtype.PacketHeader{ConnectionID: 5}, create(1, 0))
	deliver := func(p []byte, now time.Time) {
		seq++
		binary.BigEndian.PutUint32(p[4:8], seq)
		c.Receive(p, serverAddr, now)
	}
	tick := uint32(0)
	createNext := func(now time.Time) {
		binary.BigEndian.PutUint32(createPkt[20:24], tick)
		binary.BigEndian.PutUint32(createPkt[24:28], next)
		deliver(createPkt, now)
		next++
	}
	for range world {
		createNext(t0)
	}
	// Three Snapshot packets whose ids are rewritten each round: the
	// world is ids next-world to next-1.
	var snaps [][]byte
	for _, n := range []int{47, 47, 6} {
		st := make([]rtype.EntityState, n)
		for i := range st {
			st[i].NetworkID = uint32(len(snaps)*47 + i + 1)
		}
		snaps = append(snaps, packet(t, rtype.PacketHeader{ConnectionID: 5}, rtype.Snapshot{States: st}))
	}
	now := t0
	return c, func() {
		now = now.Add(time.Second / 20)
		tick += 3
		createNext(now)
		id := next - world
		for _, p := range snaps {
			binary.BigEndian.PutUint32(p[20:24], tick)
			for k := 26; k < len(p); k += 11 {
				binary.BigEndian.PutUint32(p[k:], id)
				id++
			}
			deliver(p, now)
		}
		for range c.Events() {
		}
		c.Update(now)
		_ = c.SendInput(0, now)
	}
}

// Expiry stays off the heap: rounds of Snapshots that expire an entity
// and create another each time allocate nothing.
func TestClient_13_4_ExpiryDoesNotAllocate(t *testing.T) {
	c, f := clientExpiring(t)
	for range 200 { // 10 s of rounds: past the first second, and the map's growth
		f()
	}
	before := c.NumEntities()
	if n := testing.AllocsPerRun(500, f); n != 0 {
		t.Errorf("%v allocations per round, want 0", n)
	}
	// About 20 entities wait to expire at any time, listed no more; the
	// 100 listed ones are all there.
	if n := c.NumEntities(); n != before || n < 110 || n > 130 {
		t.Errorf("%d entities held (%d before), want a steady 120 or so", n, before)
	}
	if st := c.Stats(); st.Drops.Total() != 0 {
		t.Errorf("drops %v", st.Drops)
	}
}
