package session

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// The entity index against the alternatives it was written to beat: a Go
// map and a linear scan, on the work a table does (§8.1: a lookup per
// Snapshot state or move, an insert and a removal per entity's life), at
// the sizes of a match (40), a crowded world (500) and the client's bound
// (4096). Ids are sequential from a random start, as a server gives them.
func BenchmarkIDIndex(b *testing.B) {
	for _, n := range []int{40, 500, 4096} {
		ids := make([]uint32, n)
		start := rand.Uint32N(1 << 30)
		for i := range ids {
			ids[i] = start + uint32(i) + 1
		}
		b.Run("index/"+strconv.Itoa(n), func(b *testing.B) {
			x := newIDIndex()
			for i, id := range ids {
				x.set(id, int32(i))
			}
			benchLookups(b, ids, func(id uint32) (int32, bool) { return x.get(id) },
				func(id uint32, pos int32) { x.remove(id); x.set(id, pos) })
		})
		b.Run("map/"+strconv.Itoa(n), func(b *testing.B) {
			m := make(map[uint32]int32, n)
			for i, id := range ids {
				m[id] = int32(i)
			}
			benchLookups(b, ids, func(id uint32) (int32, bool) { v, ok := m[id]; return v, ok },
				func(id uint32, pos int32) { delete(m, id); m[id] = pos })
		})
		b.Run("scan/"+strconv.Itoa(n), func(b *testing.B) {
			keys := append([]uint32(nil), ids...)
			benchLookups(b, ids, func(id uint32) (int32, bool) {
				for i, k := range keys {
					if k == id {
						return int32(i), true
					}
				}
				return 0, false
			}, func(uint32, int32) {})
		})
	}
}

// benchLookups runs a round of the table's work per iteration: every id
// looked up in a shuffled order, and one id removed and put back.
func benchLookups(b *testing.B, ids []uint32, get func(uint32) (int32, bool), replace func(uint32, int32)) {
	order := append([]uint32(nil), ids...)
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var sink int32
	i := 0
	for b.Loop() {
		for _, id := range order {
			p, _ := get(id)
			sink += p
		}
		replace(order[i%len(order)], int32(i))
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/lookup")
	_ = sink
}
