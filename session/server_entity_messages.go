package session

import "github.com/rtypeproto/rtype"

// The entity messages a player is owed (§8.2, §8.3, §13.4), put in its
// packets and recorded in one place, whatever sends them: a Tick or a
// QueryEntity's answer (§7.4).

// sendEntities puts in c's packets, after the open one's content, every
// entity message c is owed (§8.2, §8.3, §13.4), stamped with the current
// tick: CreateEntity at the current position, DestroyEntity, a copy whose
// packet seems lost, the echo of an earlier Tick's DestroyEntity.
func (s *Server) sendEntities(end toConn) {
	c, w := end.c, &s.world
	if !w.owes[c.slot] {
		return
	}
	w.owes[c.slot] = false // update sets it again for what stays owed
	before := c.seq        // packets of earlier Ticks
	for i := range w.ents {
		r := w.rep(i, c.slot)
		o := r.owes()
		if o == owesNothing {
			continue
		}
		if o == owesEcho && r.last > before {
			w.owes[c.slot] = true // the echo goes at the next Tick
			continue
		}
		if !c.sent.roomForEntities() {
			w.owes[c.slot] = true
			return
		}
		s.sendEntity(end, i, o)
	}
}

// sendEntity puts in c's packet message o that entity i's replica is owed.
func (s *Server) sendEntity(end toConn, i int, o owing) {
	c := end.c
	if o == owesResend {
		c.cs.Resends++
		s.sideStats.Resends++
		if s.trace.on() {
			s.traceResent(c, i)
		}
	}
	if !s.world.ents[i].dead {
		s.sendCreate(end, i)
		return
	}
	if o == owesEcho {
		c.cs.RedundantDestroys++
		s.sideStats.RedundantDestroys++
	}
	s.sendDestroy(end, i)
}

// answerQuery answers c's QueryEntity for id with a CreateEntity if the
// entity is alive (§7.4). With reliable events the copy must be tracked,
// or a destruction could leave a ghost: without room in flight, the
// creation stays owed and goes once there is room.
func (s *Server) answerQuery(end toConn, id uint32) {
	i, ok := s.world.find(id)
	if !ok || s.world.ents[i].dead || s.cfg.ReliableEvents.on() && !end.c.sent.roomForEntities() {
		return
	}
	s.sendCreate(end, i)
}

// sendCreate puts entity i's CreateEntity, at its current position, in c's
// packet and records it: a copy sent, in flight until the acks resolve it.
func (s *Server) sendCreate(end toConn, i int) {
	c, e := end.c, &s.world.ents[i]
	put(end, &s.asm, e.create(s.tick))
	if !s.cfg.ReliableEvents.on() {
		s.world.update(i, c.slot, (*replica).sentCreateOnce, 0)
		return
	}
	c.sent.record(entityRef{id: e.id, kind: creation})
	s.world.update(i, c.slot, (*replica).sentCreate, c.seq)
}

// sendDestroy puts dead entity i's DestroyEntity, stamped now, in c's
// packet and records it likewise.
func (s *Server) sendDestroy(end toConn, i int) {
	c, e := end.c, &s.world.ents[i]
	m := e.destroy
	m.ServerTick = s.tick
	put(end, &s.asm, m)
	if !s.cfg.ReliableEvents.on() {
		s.world.update(i, c.slot, (*replica).sentDestroyOnce, 0)
		return
	}
	c.sent.record(entityRef{id: e.id, kind: destruction})
	s.world.update(i, c.slot, (*replica).sentDestroy, c.seq)
}

// traceResent traces the resending to c of entity i's message.
func (s *Server) traceResent(c *conn, i int) {
	e, m := &s.world.ents[i], rtype.TypeCreateEntity
	if e.dead {
		m = rtype.TypeDestroyEntity
	}
	s.trace.resent(c.addr, e.id, m)
}
