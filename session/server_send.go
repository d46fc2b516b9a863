package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// toConn is the end of the packets the server builds for c (packetEnd):
// numbered on c's link, recorded and sent to c's address at now.
type toConn struct {
	s   *Server
	c   *conn
	now time.Time
}

func (e toConn) begin() { e.s.asm.begin(e.c.next(e.c.id)) }
func (e toConn) flush() { e.s.flush(e.c, e.now) }

// flush sends the packet being built to c, if any, and records it.
func (s *Server) flush(c *conn, now time.Time) {
	if !s.asm.open {
		return
	}
	s.sentNow(c, now)
	s.transmit(c.addr, s.asm.finish())
}

// Tick advances the server tick; call it once per game tick, after the game
// moved the world. It closes connections silent for InactivityTimeout
// (§13.3) and sends each player, in datagrams of at most 548 bytes (§2.2),
// the entity events it lacks: new ones and, with reliable events, lost ones
// and a second copy of each DestroyEntity of the previous Tick (§8.3,
// §13.4). Every SnapshotInterval ticks it sends the world's Snapshot in
// messages of at most 47 states sharing a serverTick, each in its own packet
// (§8.1). A client gets the world once its first connected packet arrives,
// and not while over its SendBudget (§12).
func (s *Server) Tick(now time.Time) {
	s.now = now
	s.tick++
	s.expire(now)
	s.admit(now)
	snap := s.cfg.SnapshotInterval > 0 && s.tick%uint32(s.cfg.SnapshotInterval) == 0
	if snap {
		s.states = s.states[:0]
		for i := range s.world.ents {
			e := &s.world.ents[i]
			if e.dead {
				continue
			}
			s.states = append(s.states, rtype.EntityState{NetworkID: e.id, EntityType: uint8(e.arch), X: e.x, Y: e.y, Rotation: e.rot})
		}
	}
	for i := range s.conns {
		if c := &s.conns[i]; c.active {
			s.sendTick(c, snap, now)
		}
	}
	s.world.purge()
}

// sendTick sends c the entity messages it is owed and the Snapshot
// messages, the entity messages first unless the Snapshot is large, each
// side sharing a packet with the other when there is room.
func (s *Server) sendTick(c *conn, snap bool, now time.Time) {
	if s.overBudget(c) {
		// A probe per packet received lets a real client ack and resume.
		if c.probeDue {
			c.probeDue = false
			c.lastSent = s.tick
			toConn{s, c, now}.begin()
			s.flush(c, now)
		}
		return
	}
	c.probeDue = false
	// An ack covers 33 packets (§5.1): entity messages before a larger
	// Snapshot would never show received, so they come after it.
	late := snap && len(s.states) > ackWindow/2*rtype.MaxSnapshotStates
	end := toConn{s, c, now}
	if !late {
		s.sendEntities(end)
	}
	if snap {
		s.sendSnapshot(end)
	}
	if late {
		s.sendEntities(end)
	}
	if !s.asm.open && c.entities.used > 0 && s.tick-c.lastSent >= probeTicks {
		// Acks move only when the client receives something newer: without
		// Snapshots, an empty packet (valid, §5.3) makes it show the loss.
		end.begin()
	}
	if s.asm.open {
		c.lastSent = s.tick
		s.flush(c, now)
	}
}

// sendEntities puts in c's packets, after the open one's content, every
// entity message c is owed (§8.2, §8.3, §13.4), stamped with the current
// tick: CreateEntity at the current position, DestroyEntity, a copy whose
// packet seems lost, the echo of an earlier Tick's DestroyEntity.
func (s *Server) sendEntities(end toConn) {
	c := end.c
	if !c.owes {
		return
	}
	reliable := !s.cfg.DisableReliableEvents
	before := c.seq // packets of earlier Ticks
	w := &s.world
	still := false // a message stays owed: an echo for the next Tick
	for i := range w.ents {
		r := w.rep(i, c.slot)
		if !r.owed() {
			continue
		}
		if r.echo && !r.due && r.last > before {
			still = true // the echo goes at the next Tick
			continue
		}
		if !s.roomForEntities(c) {
			still = true
			break
		}
		s.sendEntity(end, &w.ents[i], r, reliable)
		still = still || r.owed()
	}
	c.owes = still
}

// sendEntity puts the message e's replica r is owed in c's packet.
func (s *Server) sendEntity(end toConn, e *serverEntity, r *replica, reliable bool) {
	c := end.c
	// A due copy after the first is a resend; owed but not due, an echo.
	resend := r.due && (r.phase == repCreating || r.last != 0)
	if e.dead {
		echo := !r.due
		m := e.gone
		m.ServerTick = s.tick
		put(end, &s.asm, m)
		if reliable {
			c.record(entityRef{id: e.id, destroy: true})
		}
		r.sentDestroy(c.seq, reliable)
		s.world.settling = s.world.settling || !reliable // v1: sent is done
		if echo {
			c.cs.RedundantDestroys++
			s.stats.RedundantDestroys++
		}
	} else {
		put(end, &s.asm, e.create(s.tick))
		if reliable {
			c.record(entityRef{id: e.id})
		}
		r.sentCreate(c.seq, reliable)
	}
	if resend {
		c.cs.Resends++
		s.stats.Resends++
	}
}

// sendSnapshot sends the world's Snapshot in messages of at most 47 states,
// each in its own packet (§8.1), the first in the open packet if it fits.
func (s *Server) sendSnapshot(end toConn) {
	states := s.states
	for first := true; first || len(states) > 0; first = false {
		n := min(len(states), rtype.MaxSnapshotStates)
		m := rtype.Snapshot{ServerTick: s.tick, States: states[:n:n]}
		states = states[n:]
		if !first {
			end.flush()
		}
		put(end, &s.asm, m)
		s.stats.Snapshots++
	}
}

// overBudget reports whether c acknowledged none of the last SendBudget
// packets (§12): a spoofed address, maybe, so no world until it does.
func (s *Server) overBudget(c *conn) bool {
	return s.cfg.SendBudget > 0 && c.seq-c.ackTop >= uint32(s.cfg.SendBudget)
}

// probeTicks is how many ticks without a packet a connection with entity
// events in flight waits before it gets an empty one.
const probeTicks = 3
