package session

import (
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// The id index behaves as a map from network id to position under any
// sequence of additions, updates and removals, including ids that collide
// and runs long enough to grow it several times (§8.1, §8.2, §8.3).
func TestIDIndexMatchesMap(t *testing.T) {
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 300
	params.MaxSize = 2000
	p := gopter.NewProperties(params)
	// Each op: bit 15 removes, the rest picks one of 600 ids, some of them
	// multiples of 128, which share low bits, and 1, 2, 3 …
	p.Property("same answers as a map", prop.ForAll(func(ops []uint16) bool {
		x, m := newIDIndex(), map[uint32]int32{}
		for i, op := range ops {
			id := uint32(op&0x7fff)%600 + 1
			if id%3 == 0 {
				id *= 128
			}
			if op&0x8000 != 0 {
				x.remove(id)
				delete(m, id)
			} else {
				x.set(id, int32(i))
				m[id] = int32(i)
			}
			if x.n != len(m) {
				return false
			}
		}
		for id := uint32(0); id <= 600*128; id++ {
			got, ok := x.get(id)
			if want, wok := m[id]; ok != wok || got != want {
				return false
			}
		}
		return 2*x.n <= len(x.slots)
	}, gen.SliceOf(gen.UInt16())))
	p.TestingRun(t)
}

// Updating the position of an id already present, as a swap-remove does,
// neither grows the table nor allocates, even when it is half full.
func TestIDIndexUpdateDoesNotGrow(t *testing.T) {
	x := newIDIndex()
	for id := uint32(1); id <= 64; id++ {
		x.set(id, int32(id))
	}
	before := len(x.slots)
	if n := testing.AllocsPerRun(10, func() { x.set(1, 99) }); len(x.slots) != before || n != 0 {
		t.Errorf("updating id 1: table %d -> %d slots, %v allocations", before, len(x.slots), n)
	}
}

// §12: a hostile peer cannot choose ids that share a slot: ids that all
// hash to one slot under a fixed multiplier, and are consecutive multiples
// of its inverse, spread out under the index's seeded hash, so no lookup
// probes far.
func TestIDIndexResistsChosenCollisions(t *testing.T) {
	const fixed = 0x9E3779B1
	inv := uint32(fixed) // the inverse of fixed modulo 2³², by Newton's method
	for range 5 {
		inv *= 2 - fixed*inv
	}
	x := newIDIndex()
	var ids []uint32
	for j := range uint32(4000) {
		id := (5<<19 | (j + 1)) * inv // (id*fixed)>>shift is the same for all
		ids = append(ids, id)
		x.set(id, int32(j))
	}
	worst := 0
	for _, id := range ids {
		probes := 0
		for i := x.home(id); x.slots[i].id != id; i = x.next(i) {
			probes++
		}
		worst = max(worst, probes)
	}
	if worst > 64 {
		t.Errorf("a lookup probes %d slots among 4000 chosen ids", worst)
	}
}
