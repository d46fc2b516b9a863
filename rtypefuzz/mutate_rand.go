package rtypefuzz

// intn returns a number in [0, n), or 0 when n is not positive, so that a
// draw from an empty range never panics.
func (m *Mutator) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return m.r.IntN(n)
}

// between returns a number in [lo, hi].
func (m *Mutator) between(lo, hi int) int {
	return lo + m.intn(hi-lo+1)
}

// oneIn reports true once in n draws.
func (m *Mutator) oneIn(n int) bool { return m.intn(n) == 0 }

// u32 returns a random 32-bit value.
func (m *Mutator) u32() uint32 { return m.r.Uint32() }

// random returns n random bytes.
func (m *Mutator) random(n int) []byte {
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = byte(m.r.Uint32())
	}
	return b
}

// pickOf returns one element of xs, the zero value when xs is empty.
func pickOf[T any](m *Mutator, xs []T) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	return xs[m.intn(len(xs))]
}

// named is an edge value and how a Mutation's What calls it.
type named struct {
	name string
	v    uint32
}
