package planted

// join sends a new player the world, then spawns its ship in the lowest
// free slot and tells everyone (§8.2, §10). With the 4 slots taken the
// player gets no ship.
func (s *server) join(p *peer) {
	for _, e := range s.world.live {
		p.queue(s.createMsg(e))
	}
	slot := s.world.freeSlot()
	if slot < 0 || len(s.world.live) >= maxEntities {
		return
	}
	ship := &entity{kind: shipArchetypes[slot], x: 150, y: 150 + 100*float64(slot)}
	p.ship, p.slot = ship, slot
	s.world.slots[slot] = p
	s.create(ship)
}

// unjoin removes a leaving player's ship; the others are told with
// reason 3, player disconnected (§7.3).
func (s *server) unjoin(p *peer) {
	if p.ship == nil {
		return
	}
	s.world.slots[p.slot] = nil
	s.destroy(p.ship, reasonDisconnected)
	p.ship = nil
}

// create puts e in the world and sends its CreateEntity to every player
// (§8.2).
func (s *server) create(e *entity) {
	s.world.add(e)
	s.broadcast(s.createMsg(e))
}

// destroy removes e and sends its DestroyEntity to every player (§8.3).
func (s *server) destroy(e *entity, reason byte) {
	s.world.remove(e)
	s.broadcast(s.destroyMsg(e, reason))
}

func (s *server) broadcast(m []byte) {
	for _, p := range s.peers {
		p.queue(m)
	}
}

// fire launches a missile from ship, when Shoot is released (§7.1).
func (s *server) fire(ship *entity) {
	if len(s.world.live) >= maxEntities {
		return
	}
	s.create(&entity{kind: archBullet, x: ship.x + 32, y: ship.y, vx: missileStep, missile: true})
}

// step moves every entity one tick: ships stay in the playfield, missiles
// past its right edge are destroyed (§8.3 reason 2).
func (s *server) step() {
	for _, e := range append([]*entity(nil), s.world.live...) {
		e.x, e.y = e.x+e.vx, e.y+e.vy
		switch {
		case e.missile && e.x > playWidth:
			s.destroy(e, reasonOutOfBounds)
		case !e.missile:
			e.x, e.y = min(max(e.x, 0), playWidth), min(max(e.y, 0), playHeight)
		}
	}
}

// velocity returns a ship's velocity for the actions held: Down and Right
// win over their opposites, diagonals are scaled to the straight speed
// (§7.1).
func velocity(actions byte) (vx, vy float64) {
	switch {
	case actions&actRight != 0:
		vx = 1
	case actions&actLeft != 0:
		vx = -1
	}
	switch {
	case actions&actDown != 0:
		vy = 1
	case actions&actUp != 0:
		vy = -1
	}
	if vx != 0 && vy != 0 {
		vx, vy = vx*diagonal, vy*diagonal
	}
	return vx * shipSpeed, vy * shipSpeed
}

// snapshot sends every player the positions of every entity, at most 47,
// in one Snapshot (§8.1).
func (s *server) snapshot() {
	n := len(s.world.live)
	m := appendMsgHeader(make([]byte, 0, msgHeaderSize+6+stateSize*n), msgSnapshot, 6+stateSize*n)
	m = be.AppendUint32(m, s.serverTick)
	m = be.AppendUint16(m, uint16(n))
	for _, e := range s.world.live {
		m = be.AppendUint32(m, e.id)
		m = append(m, byte(e.kind)) // the archetype's low 8 bits (§8.1)
		m = be.AppendUint16(m, pos16(e.x))
		m = be.AppendUint16(m, pos16(e.y))
		m = be.AppendUint16(m, 0)
	}
	s.broadcast(m)
}

// createMsg returns e's CreateEntity (§8.2).
func (s *server) createMsg(e *entity) []byte {
	m := appendMsgHeader(make([]byte, 0, msgHeaderSize+createSize), msgCreateEntity, createSize)
	m = be.AppendUint32(m, s.serverTick)
	m = be.AppendUint32(m, e.id)
	m = be.AppendUint16(m, e.kind)
	m = be.AppendUint16(m, pos16(e.x))
	m = be.AppendUint16(m, pos16(e.y))
	return be.AppendUint16(m, 0)
}

// destroyMsg returns e's DestroyEntity (§8.3).
func (s *server) destroyMsg(e *entity, reason byte) []byte {
	m := appendMsgHeader(make([]byte, 0, msgHeaderSize+destroySize), msgDestroyEntity, destroySize)
	m = be.AppendUint32(m, s.serverTick)
	m = be.AppendUint32(m, e.id)
	return append(m, reason)
}
