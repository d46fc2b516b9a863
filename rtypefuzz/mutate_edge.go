package rtypefuzz

import "slices"

// The catalogue of edges: every choice of every breaker, enumerated, so
// that a run sends each one before it draws at random (the edge pass).
// Drawn at random, the rarest edges (a Disconnect, 1 in about 2,000
// datagrams) take tens of thousands of datagrams to come up; walked, the
// whole catalogue takes a few hundred.

// edgeEntry is one edge: a breaker of a layer, and the choices of its
// edge picks (edge, edgeOf, rareOf, edgeOdds), in the order it makes them.
type edgeEntry struct {
	layer   Layer
	breaker int
	plan    []int
}

// edgeContext is the session the catalogue is enumerated in: connected,
// so that every layer's breakers take the paths of a live session.
func edgeContext(t Target) Context {
	return Context{Target: t, Conn: 1, Seq: 1, Tick: 3, Entities: []uint32{1}}
}

// edges returns the catalogue of target t: each breaker's choice tree
// walked depth first, every path once.
func (m *Mutator) edges(t Target) []edgeEntry {
	if t > Client {
		t = Server
	}
	if m.catalogue[t] != nil {
		return m.catalogue[t]
	}
	var out []edgeEntry
	for l := range NumLayers {
		for bi, b := range layerBreakers[l] {
			for plan := []int{}; plan != nil; {
				c := edgeContext(t)
				m.force(0, plan)
				b(m, &c)
				full := slices.Grow(slices.Clone(plan), len(m.arity))
				for len(full) < len(m.arity) {
					full = append(full, 0)
				}
				out = append(out, edgeEntry{layer: l, breaker: bi, plan: full})
				plan = nextPlan(full, m.arity)
			}
		}
	}
	m.forcing = false
	m.catalogue[t] = out
	return out
}

// nextPlan is the path after full in a depth-first walk of a choice tree
// whose choices on full's path had arity choices each, or nil after the
// last.
func nextPlan(full, arity []int) []int {
	for i := len(full) - 1; i >= 0; i-- {
		if full[i]+1 < arity[i] {
			return append(slices.Clone(full[:i]), full[i]+1)
		}
	}
	return nil
}

// force makes the draws those of datagram i and the edge picks plan's.
func (m *Mutator) force(i uint64, plan []int) {
	m.at(i)
	m.forcing, m.plan, m.arity, m.ends = true, plan, m.arity[:0], false
}

// numEdges is the length of the edge pass against target t.
func (m *Mutator) numEdges(t Target) int { return len(m.edges(t)) }

// edgeAt returns edge k of the catalogue of c's target, made for the
// session c, with the other draws those of datagram i of the run.
func (m *Mutator) edgeAt(i uint64, k int, c *Context) Mutation {
	c = usable(c)
	cat := m.edges(c.Target)
	e := cat[k%len(cat)]
	m.force(i, e.plan)
	what, b := layerBreakers[e.layer][e.breaker](m, c)
	m.forcing = false
	return m.finish(c, e.layer, what, b)
}

// nextAt returns a mutation for c drawn at random as datagram i of a run:
// the same for the same seed, i and context, whatever came before.
func (m *Mutator) nextAt(i uint64, c *Context) Mutation {
	m.at(i)
	return m.Next(c)
}
