package session

// The entity messages of a packet (§13.4) stay in a block of the
// connection's history until the acks resolve them; entity messages go
// only into packets with a free block, so none is forgotten unresolved.

// destructionsArrived: the DestroyEntity copies of block b arrived.
func (s *Server) destructionsArrived(c *conn, b *entityBlock) {
	s.eachRef(c, b, destruction, func(r *replica) { r.ackedDestroy(b.seq) })
}

// creationsArrived: the CreateEntity copies of block b arrived.
func (s *Server) creationsArrived(c *conn, b *entityBlock) {
	s.eachRef(c, b, creation, (*replica).ackedCreate)
}

// copiesLost: block b's packet left the window unacknowledged (§5.2): its
// entity messages count as lost, the destructions first.
func (s *Server) copiesLost(c *conn, b *entityBlock) {
	s.eachRef(c, b, destruction, (*replica).lostDestroy)
	s.eachRef(c, b, creation, func(r *replica) { r.lostCreate(b.seq) })
}

// copiesSuspected tells the replicas of block b's messages, of either
// kind, that their copy may be lost.
func (s *Server) copiesSuspected(c *conn, b *entityBlock) {
	for _, ref := range b.refs[:b.n] {
		if j, ok := s.world.find(ref.id); ok {
			s.world.update(j, c.slot, func(r *replica) { r.suspect(b.seq) })
		}
	}
}

// eachRef applies t to c's replica of every entity block b has a message
// of kind k for.
func (s *Server) eachRef(c *conn, b *entityBlock, k refKind, t func(*replica)) {
	for _, ref := range b.refs[:b.n] {
		if ref.kind != k {
			continue
		}
		if j, ok := s.world.find(ref.id); ok {
			s.world.update(j, c.slot, t)
		}
	}
}
