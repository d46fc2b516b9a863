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
		for id := uint32(1); id <= 600*128; id++ {
			got, ok := x.get(id)
			if want, wok := m[id]; ok != wok || got != want {
				return false
			}
		}
		return 2*x.n <= len(x.slots)
	}, gen.SliceOf(gen.UInt16())))
	p.TestingRun(t)
}
