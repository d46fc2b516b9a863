package rtypefuzz

import "fmt"

// schedule orders a run's mutations: the edge pass first, every edge of
// the catalogue once, then random draws, a quarter of them from the corpus
// when there is one. Datagram i's mutation is a function of the seed, i,
// the session it is made for and the corpus: never of the target's timing.
type schedule struct {
	mut    *Mutator
	corpus *Corpus
	// edge is the next edge of the pass.
	edge int
}

func newSchedule(seed uint64, corpus *Corpus, t Target) *schedule {
	s := &schedule{mut: NewMutator(seed), corpus: corpus}
	s.mut.edges(t) // built now, not in the middle of a run
	return s
}

// next returns the mutation of datagram i, for the session c.
func (s *schedule) next(i uint64, c *Context) Mutation {
	if n := s.mut.numEdges(c.Target); s.edge < n {
		s.edge++
		m := s.mut.edgeAt(i, s.edge-1, c)
		m.What = fmt.Sprintf("edge %d of %d, %s", s.edge, n, m.What)
		return m
	}
	m := s.mut
	m.at(i)
	if s.corpus != nil && s.corpus.Len() > 0 && m.oneIn(4) {
		return m.From(c, s.corpus.Pick(m.r))
	}
	return m.Next(c)
}

// inPass reports whether the edge pass is under way.
func (s *schedule) inPass(t Target) bool { return s.edge < s.mut.numEdges(t) }
