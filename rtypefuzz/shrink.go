package rtypefuzz

// ShrinkCalls bounds the calls Shrink makes to its predicate. Each call
// replays a session against a real implementation, which may have to be
// restarted, so a few hundred is already minutes: past it, the smallest
// failing sequence found so far is good enough for a reproducer.
const ShrinkCalls = 200

// Shrink returns as few datagrams of ds as it can find, in their order,
// for which fails still returns true, calling fails at most ShrinkCalls
// times. fails is assumed true of ds itself, which is returned when
// nothing smaller fails.
func Shrink(ds []Datagram, fails func([]Datagram) bool) []Datagram {
	return ShrinkWithin(ds, fails, ShrinkCalls)
}

// ShrinkWithin is Shrink with at most calls calls to fails.
//
// It is delta debugging (ddmin) without its subset tests: cut the
// sequence into n chunks, drop each chunk in turn if the rest still fails,
// then cut the chunks left in halves, down to single datagrams. The subset
// tests (keeping one chunk alone) are left out, and a pass goes on from
// the next chunk after a drop instead of starting over, as each call costs
// a replay: a chunk kept was needed by a longer sequence, so, if failing
// takes datagrams rather than their absence, it is still needed. With the
// calls left, the result is 1-minimal: no single datagram can go.
func ShrinkWithin(ds []Datagram, fails func([]Datagram) bool, calls int) []Datagram {
	s := shrinker{ds: ds, fails: fails, left: calls, seen: map[string]bool{}}
	cur := make([]int, len(ds))
	for i := range cur {
		cur[i] = i
	}
	for n := 2; len(cur) >= 2 && s.left > 0; {
		n = min(n, len(cur))
		single := n == len(cur)
		chunks := shrinkSplit(cur, n)
		var kept [][]int
		for i, c := range chunks {
			rest := shrinkJoin(kept, chunks[i+1:])
			if len(rest) == 0 || !s.try(rest) {
				kept = append(kept, c)
			}
		}
		cur = shrinkJoin(kept, nil)
		if single {
			break // one pass over single datagrams is enough, as above
		}
		n = 2 * len(kept) // chunks half as long
	}
	return s.pick(cur)
}

// shrinker runs the predicate on subsequences of ds, named by the indices
// they keep, and counts the calls left.
type shrinker struct {
	ds    []Datagram
	fails func([]Datagram) bool
	left  int
	seen  map[string]bool
}

// try reports whether the subsequence idx fails, asking the predicate only
// for a subsequence not asked before and while calls are left.
func (s *shrinker) try(idx []int) bool {
	k := shrinkKey(idx)
	if r, ok := s.seen[k]; ok {
		return r
	}
	if s.left <= 0 {
		return false
	}
	s.left--
	r := s.fails(s.pick(idx))
	s.seen[k] = r
	return r
}

func (s *shrinker) pick(idx []int) []Datagram {
	out := make([]Datagram, len(idx))
	for i, j := range idx {
		out[i] = s.ds[j]
	}
	return out
}

// shrinkKey names a subsequence by its indices, 4 bytes each.
func shrinkKey(idx []int) string {
	b := make([]byte, 0, 4*len(idx))
	for _, i := range idx {
		b = append(b, byte(i>>24), byte(i>>16), byte(i>>8), byte(i))
	}
	return string(b)
}

// shrinkSplit cuts idx into n chunks of nearly equal sizes, none empty.
func shrinkSplit(idx []int, n int) [][]int {
	n = min(n, len(idx))
	out := make([][]int, 0, n)
	for i, start := 0, 0; i < n; i++ {
		end := start + (len(idx)-start)/(n-i)
		out = append(out, idx[start:end])
		start = end
	}
	return out
}

// shrinkJoin joins the chunks of a and b.
func shrinkJoin(a, b [][]int) []int {
	var out []int
	for _, c := range a {
		out = append(out, c...)
	}
	for _, c := range b {
		out = append(out, c...)
	}
	return out
}
