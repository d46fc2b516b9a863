package rtype

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// The Snapshot's duplicate-id check (§8.1) when ids are not ascending, the
// path a sender can force: the set against a sort of a copy and a pairwise
// scan, for 8 ids and the 47 a Snapshot holds at most.
func BenchmarkSnapshotIDCheck(b *testing.B) {
	for _, n := range []int{8, MaxSnapshotStates} {
		ids := make([]uint32, n)
		for i := range ids {
			ids[i] = rand.Uint32N(1<<20) + 1
		}
		ids[0], ids[1] = 9, 8 // not ascending
		b.Run("set/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				var s idSet
				for _, id := range ids {
					if s.add(id) != nil {
						b.Fatal("duplicate")
					}
				}
			}
		})
		b.Run("sort/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				var a [MaxSnapshotStates]uint32
				s := a[:copy(a[:], ids)]
				slices.Sort(s)
				for i := 1; i < len(s); i++ {
					if s[i] == s[i-1] {
						b.Fatal("duplicate")
					}
				}
			}
		})
		b.Run("scan/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				for i, id := range ids {
					if slices.Contains(ids[:i], id) {
						b.Fatal("duplicate")
					}
				}
			}
		})
	}
}
