package rtypefuzz

import "math/rand/v2"

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

// edge returns one of the n edges of a field: drawn at random, or, while
// an entry of the catalogue is made, the one its plan names.
func (m *Mutator) edge(n int) int {
	if !m.forcing {
		return m.intn(n)
	}
	k := len(m.arity)
	m.arity = append(m.arity, max(n, 1))
	if k < len(m.plan) && m.plan[k] < n {
		return m.plan[k]
	}
	return 0
}

// edgeOf returns one of the edges xs, as edge chooses.
func edgeOf[T any](m *Mutator, xs []T) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	return xs[m.edge(len(xs))]
}

// edgeOdds reports true once in n draws at random; the catalogue has both
// outcomes.
func (m *Mutator) edgeOdds(n int) bool {
	if m.forcing {
		return m.edge(2) == 1
	}
	return m.oneIn(n)
}

// rareOf returns one of common, or, once in rareOdds draws, one of rare,
// which marks the datagram as ending the session; the catalogue has every
// one of both.
func rareOf[T any](m *Mutator, common, rare []T) T {
	if !m.forcing && (len(rare) == 0 || !m.oneIn(rareOdds)) {
		return pickOf(m, common)
	}
	k := len(common) + m.intn(len(rare))
	if m.forcing {
		k = m.edge(len(common) + len(rare))
	}
	if k < len(common) {
		return common[k]
	}
	m.ends = true
	return rare[k-len(common)]
}

// apart runs f on draws of its own, seeded by one draw of m's: how many f
// makes depends on what the session learnt from the target (its
// entities), and then shifts none of the draws after it.
func (m *Mutator) apart(f func()) {
	saved, g := m.r, m.aside
	if g == nil {
		g = newApartRand() // apart inside apart
	}
	m.aside = nil
	g.src.Seed(saved.Uint64(), streamOf)
	m.r = g.r
	defer func() { m.r, m.aside = saved, g }()
	f()
}

// apartRand is a generator apart reseeds at each use, rather than
// allocating one per draw of an entity id.
type apartRand struct {
	src *rand.PCG
	r   *rand.Rand
}

func newApartRand() *apartRand {
	src := rand.NewPCG(0, streamOf)
	return &apartRand{src: src, r: rand.New(src)}
}
