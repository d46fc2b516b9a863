package session

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
	"github.com/rtypeproto/rtype"
)

// The reliable entity events (§13.4) against a model: whatever datagrams
// the network loses, duplicates, reorders or delays, each copy on its own
// and for many ticks, as long as the client stays connected,
// the game on the client side sees each CreateEntity and DestroyEntity at
// most once, and once the network delivers again, exactly the entities
// alive on the server, each created once, each destroyed one gone once.

// relModel is what the server's game did.
type relModel struct {
	nextID    uint32
	alive     []uint32
	destroyed []uint32
}

// relSUT is a server and a connected client joined by a link the commands
// control.
type relSUT struct {
	srv     *Server
	cli     *Client
	down    [][]byte // server to client, not delivered yet
	up      [][]byte
	now     time.Time
	alive   []uint32 // in spawn order, as the model keeps them
	created map[uint32]int
	gone    map[uint32]int
	// spec sees the same datagrams as cli but follows only the spec's
	// rules, without cli's memory of destroyed ids and ticks.
	spec *specClient
	// late holds the copies the network delays past their tick, each
	// with the step it arrives at, within or beyond the 32-packet
	// window (§5.2).
	late []lateCopy
	step int
}

type lateCopy struct {
	at   int
	down bool
	b    []byte
}

// fates gives each datagram of a tick its copies' delays in ticks,
// drawn from seed: one copy in four is duplicated, half the copies are on
// time, most others a few ticks late, some 20 to 150 ticks late.
func fates(seed uint64, step, n int) [][]int {
	out := make([][]int, n)
	if seed == 0 {
		for i := range out {
			out[i] = []int{0}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(seed, uint64(step)))
	for i := range out {
		copies := 1 + rng.IntN(4)/3
		for range copies {
			d := 0
			switch r := rng.IntN(20); {
			case r >= 17:
				d = 20 + rng.IntN(131)
			case r >= 10:
				d = 1 + rng.IntN(8)
			}
			out[i] = append(out[i], d)
		}
	}
	return out
}

func newRelSUT() *relSUT {
	u := &relSUT{now: t0, created: map[uint32]int{}, gone: map[uint32]int{}, spec: newSpecClient()}
	u.srv = NewServer(ServerConfig{InactivityTimeout: Off}, func(_ netip.AddrPort, b []byte) { u.down = append(u.down, slices.Clone(b)) })
	u.cli = NewClient(serverAddr, ClientConfig{ServerTimeout: Off}, func(_ netip.AddrPort, b []byte) { u.up = append(u.up, slices.Clone(b)) })
	u.exchange(0, 0, false, 0)
	u.exchange(0, 0, false, 0)
	return u
}

// exchange runs one tick: the server ticks, its datagrams go down except
// those whose bit is set in lossDown (reversed when reorder), the client
// sends an Input, its datagrams go up except those lost by lossUp. A
// delay seed other than 0 duplicates and delays each copy on its own
// (fates); the copies due arrive first.
func (u *relSUT) exchange(lossDown, lossUp uint32, reorder bool, delay uint64) {
	u.step++
	u.now = u.now.Add(time.Second / 60)
	u.srv.Tick(u.now)
	var lateUp [][]byte
	keep := u.late[:0]
	for _, c := range u.late {
		switch {
		case c.at > u.step:
			keep = append(keep, c)
		case c.down:
			u.cli.Receive(c.b, serverAddr, u.now)
			u.spec.receive(c.b)
		default:
			lateUp = append(lateUp, c.b)
		}
	}
	u.late = keep
	down := u.down
	u.down = nil
	if reorder {
		slices.Reverse(down)
	}
	for i, b := range down {
		if lossDown&(1<<(i%32)) != 0 {
			continue
		}
		for _, d := range fates(delay, 2*u.step, len(down))[i] {
			if d > 0 {
				u.late = append(u.late, lateCopy{at: u.step + d, down: true, b: b})
				continue
			}
			u.cli.Receive(b, serverAddr, u.now)
			u.spec.receive(b)
		}
	}
	u.cli.Update(u.now)
	for e := range u.cli.Events() {
		switch e.Kind {
		case EventEntityCreated:
			u.created[e.Entity.ID]++
		case EventEntityDestroyed:
			u.gone[e.Entity.ID]++
		}
	}
	if u.cli.State().Connected() {
		_ = u.cli.SendInput(0, u.now)
	} else {
		u.cli.Update(u.now)
	}
	up := u.up
	u.up = nil
	for _, b := range lateUp {
		u.srv.Receive(b, addrA, u.now)
	}
	for i, b := range up {
		if lossUp&(1<<(i%32)) != 0 {
			continue
		}
		for _, d := range fates(delay, 2*u.step+1, len(up))[i] {
			if d > 0 {
				u.late = append(u.late, lateCopy{at: u.step + d, b: b})
				continue
			}
			u.srv.Receive(b, addrA, u.now)
		}
	}
	for range u.srv.Events() {
	}
}

// atMostOnce checks what must hold at every step.
func (u *relSUT) atMostOnce() *gopter.PropResult {
	for id, n := range u.created {
		if n > 1 {
			return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("entity %d created %d times", id, n)}
		}
	}
	for id, n := range u.gone {
		if n > 1 || u.created[id] == 0 {
			return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("entity %d destroyed %d times, created %d", id, n, u.created[id])}
		}
	}
	if !u.cli.State().Connected() || u.srv.NumPlayers() != 1 {
		return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("client %v, %d players", u.cli.State(), u.srv.NumPlayers())}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

func relCommands() *commands.ProtoCommands {
	spawn := &commands.ProtoCommand{
		Name: "Spawn",
		RunFunc: func(sut commands.SystemUnderTest) commands.Result {
			u := sut.(*relSUT)
			id := u.srv.Spawn(rtype.ArchetypeBullet, 1, 2, 3)
			u.alive = append(u.alive, id)
			return id
		},
		NextStateFunc: func(st commands.State) commands.State {
			m := st.(relModel)
			m.nextID++
			m.alive = append(slices.Clone(m.alive), m.nextID)
			return m
		},
		PostConditionFunc: func(st commands.State, r commands.Result) *gopter.PropResult {
			if m := st.(relModel); r.(uint32) != m.nextID {
				return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("spawned id %d, model %d", r, m.nextID)}
			}
			return &gopter.PropResult{Status: gopter.PropTrue}
		},
	}
	destroy := func(k int) commands.Command {
		return &commands.ProtoCommand{
			Name:             fmt.Sprintf("Destroy(%d)", k),
			PreConditionFunc: func(st commands.State) bool { return len(st.(relModel).alive) > 0 },
			RunFunc: func(sut commands.SystemUnderTest) commands.Result {
				u := sut.(*relSUT)
				id := u.alive[k%len(u.alive)]
				u.alive = slices.Delete(u.alive, k%len(u.alive), k%len(u.alive)+1)
				return u.srv.Destroy(id, rtype.DestroyGameplay)
			},
			NextStateFunc: func(st commands.State) commands.State {
				m := st.(relModel)
				i := k % len(m.alive)
				m.destroyed = append(slices.Clone(m.destroyed), m.alive[i])
				m.alive = slices.Delete(slices.Clone(m.alive), i, i+1)
				return m
			},
			PostConditionFunc: func(_ commands.State, r commands.Result) *gopter.PropResult {
				if r != nil {
					return &gopter.PropResult{Status: gopter.PropFalse, Error: r.(error)}
				}
				return &gopter.PropResult{Status: gopter.PropTrue}
			},
		}
	}
	exchange := func(lossDown, lossUp uint32, reorder bool, delay uint64) commands.Command {
		return &commands.ProtoCommand{
			Name: fmt.Sprintf("Exchange(down %08x, up %08x, reorder %v, delay %x)", lossDown, lossUp, reorder, delay),
			RunFunc: func(sut commands.SystemUnderTest) commands.Result {
				u := sut.(*relSUT)
				u.exchange(lossDown, lossUp, reorder, delay)
				return u
			},
			PostConditionFunc: func(_ commands.State, r commands.Result) *gopter.PropResult {
				return r.(*relSUT).atMostOnce()
			},
		}
	}
	settle := &commands.ProtoCommand{
		Name: "Settle",
		RunFunc: func(sut commands.SystemUnderTest) commands.Result {
			u := sut.(*relSUT)
			// Every delayed copy arrives, then past the 32-packet
			// window (§5.2), with a packet every 3 ticks: every event
			// in flight is settled by then.
			for len(u.late) > 0 {
				u.exchange(0, 0, false, 0)
			}
			for range 120 {
				u.exchange(0, 0, false, 0)
			}
			return u
		},
		PostConditionFunc: func(st commands.State, r commands.Result) *gopter.PropResult {
			u, m := r.(*relSUT), st.(relModel)
			if res := u.atMostOnce(); !res.Success() {
				return res
			}
			var held []uint32
			for e := range u.cli.Entities() {
				held = append(held, e.ID)
			}
			slices.Sort(held)
			want := slices.Sorted(slices.Values(m.alive))
			if !slices.Equal(held, want) {
				return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("client holds %v, server world %v", held, want)}
			}
			if spec := slices.Sorted(maps.Keys(u.spec.ents)); !slices.Equal(spec, want) {
				return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("spec client holds %v, server world %v", spec, want)}
			}
			for _, id := range m.alive {
				if u.created[id] != 1 {
					return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("alive entity %d created %d times", id, u.created[id])}
				}
			}
			for _, id := range m.destroyed {
				// A creation overtaken by its destruction is never shown:
				// both events or neither.
				if u.created[id] != u.gone[id] {
					return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("destroyed entity %d: created %d, destroyed %d", id, u.created[id], u.gone[id])}
				}
			}
			if u.srv.conns[0].pending(&u.srv.world) != 0 {
				return &gopter.PropResult{Status: gopter.PropFalse, Error: fmt.Errorf("%d events still pending", u.srv.conns[0].pending(&u.srv.world))}
			}
			return &gopter.PropResult{Status: gopter.PropTrue}
		},
	}
	return &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(commands.State) commands.SystemUnderTest { return newRelSUT() },
		InitialStateGen:        gen.Const(relModel{}),
		GenCommandFunc: func(commands.State) gopter.Gen {
			return gen.Weighted([]gen.WeightedGen{
				{Weight: 4, Gen: gen.Const(spawn)},
				{Weight: 2, Gen: gen.IntRange(0, 1000).Map(func(k int) commands.Command { return destroy(k) })},
				{Weight: 8, Gen: gopter.CombineGens(gen.UInt32(), gen.UInt32(), gen.Bool(), gen.OneGenOf(gen.Const(uint64(0)), gen.UInt64())).Map(func(v []any) commands.Command {
					return exchange(v[0].(uint32), v[1].(uint32), v[2].(bool), v[3].(uint64))
				})},
				{Weight: 1, Gen: gen.Const(settle)},
			})
		},
	}
}

func TestReliable_13_4_ExactlyOnceAgainstModel(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(1)
	params.MinSuccessfulTests = 150
	props := gopter.NewProperties(params)
	props.Property("entity events delivered exactly once", commands.Prop(relCommands()))
	props.TestingRun(t)
}
