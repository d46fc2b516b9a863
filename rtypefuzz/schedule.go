package rtypefuzz

// schedule orders a run's mutations: the edge pass first, every edge of
// the catalogue once, then random draws. Datagram i's mutation is a
// function of the seed, i and the session it is made for: never of the
// target's timing.
type schedule struct {
	mut *Mutator
	// edge is the next edge of the pass.
	edge int
}

func newSchedule(seed uint64, t Target) *schedule {
	s := &schedule{mut: NewMutator(seed)}
	s.mut.edges(t) // built now, not in the middle of a run
	return s
}

// next returns the mutation of datagram i, for the session c.
func (s *schedule) next(i uint64, c *Context) Mutation {
	if n := s.mut.numEdges(c.Target); s.edge < n {
		s.edge++
		m := s.mut.edgeAt(i, s.edge-1, c)
		m.What = s.mut.whatf("edge %d of %d, %s", s.edge, n, m.What)
		return m
	}
	m := s.mut
	m.at(i)
	return m.Next(c)
}
