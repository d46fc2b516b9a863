package main

import "github.com/rtypeproto/rtype"

// tick advances the game by one tick: ships move by the velocity of the
// controls held (§7.1), and every third tick each connection gets a
// Snapshot (§8.1).
func (s *server) tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := &s.game
	g.tick++
	states := g.states[:0]
	for _, sh := range g.slots {
		if sh == nil {
			continue
		}
		// Down and Right win, diagonals scaled by 0.7071 (§7.1).
		vx, vy := sh.actions.Velocity(shipStep)
		sh.x = min(max(sh.x+vx, 0), width)
		sh.y = min(max(sh.y+vy, 0), height)
		states = append(states, rtype.EntityState{NetworkID: sh.id, EntityType: uint8(shipColours[sh.slot]),
			X: rtype.PosFromPixels(sh.x), Y: rtype.PosFromPixels(sh.y)})
	}
	if g.tick%snapshotEvery != 0 {
		return
	}
	for _, c := range s.conns {
		// At most 47 states a Snapshot, each in its own packet (§8.1).
		for snap := range rtype.SplitSnapshot(g.tick, states) {
			o := s.out(c)
			put(&o, snap)
			o.flush()
			if s.cfg.crashAfterSnapshot {
				s.crash()
			}
		}
	}
}
