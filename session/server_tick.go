package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// toConn is the end of the packets the server builds for c (packetEnd):
// numbered on c's peer, recorded and sent to c's address at now.
type toConn struct {
	s   *Server
	c   *conn
	now time.Time
}

func (e toConn) begin() { e.s.asm.begin(e.c.next()) }
func (e toConn) flush() { e.s.flush(e.c, e.now) }

// flush sends the packet being built to c, if any, and records it.
func (s *Server) flush(c *conn, now time.Time) {
	if !s.asm.open {
		return
	}
	c.sent.sent(c.seq, now, replicas{&s.world, c.slot})
	snap := s.asm.snapshot
	b := s.asm.finish()
	if snap {
		s.sideStats.SnapshotSizes.Observe(float64(len(b)))
	}
	s.transmit(c.addr, b)
}

// Tick advances the server tick; call it once per game tick, after the game
// moved the world. It closes connections silent for InactivityTimeout
// (§13.3) and sends each player, in datagrams of at most 548 bytes (§2.2),
// the entity events it lacks: new ones and, with reliable events, lost ones
// and a second copy of each DestroyEntity of the previous Tick (§8.3,
// §13.4). Every SnapshotInterval ticks it sends the world's Snapshot in
// messages of at most 47 states sharing a serverTick, each in its own packet
// (§8.1). A client gets the world once its first connected packet arrives,
// and not while over its SendBudget (§12). After [Server.Close] it does
// nothing.
func (s *Server) Tick(now time.Time) {
	s.trace.at(now)
	if s.state == serverClosed {
		return
	}
	s.tick++
	s.ops.drops(&s.stats.Drops, now)
	s.expire(now)
	s.admit(now)
	if s.cfg.SnapshotInterval > 0 && s.tick%uint32(s.cfg.SnapshotInterval) == 0 {
		s.states = s.world.states(s.states)
		s.round.encode(s.tick, s.states)
		for c := range s.open() {
			s.sendRound(c, now)
		}
	} else {
		for c := range s.open() {
			s.sendTick(c, now)
		}
	}
	s.world.purge()
}

// sendTick sends c the entity messages it is owed, on a tick without a
// Snapshot.
func (s *Server) sendTick(c *conn, now time.Time) {
	end := toConn{s, c, now}
	if s.probing(end) {
		return
	}
	s.sendEntities(end)
	s.endTick(end)
}

// sendRound sends c the entity messages it is owed and the Snapshot
// messages of the round in s.states, the entity messages first unless the
// Snapshot is large, each side sharing a packet with the other when there
// is room.
func (s *Server) sendRound(c *conn, now time.Time) {
	end := toConn{s, c, now}
	if s.probing(end) {
		return
	}
	// An ack covers 33 packets (§5.1): entity messages before a larger
	// Snapshot would never show received, so they come after it.
	if len(s.states) > ackWindow/2*rtype.MaxSnapshotStates {
		s.sendSnapshot(end)
		s.sendEntities(end)
	} else {
		s.sendEntities(end)
		s.sendSnapshot(end)
	}
	s.endTick(end)
}

// probing reports whether the connection is over its SendBudget (§12),
// then sent only a probe per packet it sent, which lets a real client ack
// and resume.
func (s *Server) probing(end toConn) bool {
	c := end.c
	if !s.overBudget(c) {
		c.probeDue = false
		return false
	}
	if c.probeDue {
		c.probeDue = false
		c.lastSent = s.tick
		end.begin()
		s.flush(c, end.now)
	}
	return true
}

// endTick sends what the tick assembled for the connection, and an empty
// packet when its acks need one to move.
func (s *Server) endTick(end toConn) {
	c := end.c
	if !s.asm.open && c.sent.used > 0 && s.tick-c.lastSent >= probeTicks {
		// Acks move only when the client receives something newer: without
		// Snapshots, an empty packet (valid, §5.3) makes it show the loss.
		end.begin()
	}
	if s.asm.open {
		c.lastSent = s.tick
		s.flush(c, end.now)
	}
}

// sendSnapshot sends the world's Snapshot in messages of at most 47 states,
// each in its own packet (§8.1), the first in the open packet if it fits.
func (s *Server) sendSnapshot(end toConn) {
	for i, m := range s.round.msgs {
		if i > 0 {
			end.flush()
		}
		put(end, &s.asm, m)
		s.asm.snapshot = true
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
