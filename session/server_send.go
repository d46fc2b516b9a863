package session

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
)

// sentPacket remembers when a packet was sent and whether the client
// acknowledged it, for the round-trip time and the loss (§5.2).
type sentPacket struct {
	seq   uint32
	at    time.Time
	acked bool
	lost  bool // counted in Lost: it left the window unacknowledged
}

// sentRing covers more than the 32-packet ack window. A packet is counted
// lost when an ack more than 32 above it shows it unacknowledged (§5.2);
// one whose slot is reused before any such ack came is counted then.
type sentRing struct {
	p [64]sentPacket
}

// ack applies the client's ack and ackBits (§5.1) to c: round-trip time,
// loss, and the reliable entity events (§13.4).
func (s *Server) ack(c *conn, ack, bits uint32, now time.Time) {
	if ack == 0 || ack > c.seq {
		return // nothing received yet, or an ack for a packet never sent
	}
	c.ackTop = max(c.ackTop, ack)
	r := &c.sent
	for d := uint32(0); d <= 32 && d < ack; d++ {
		seq := ack - d
		if d > 0 && bits&(1<<(d-1)) == 0 {
			continue
		}
		sp := &r.p[seq%64]
		if sp.seq != seq || sp.acked {
			continue
		}
		if sp.lost {
			// A client packet overtaken by a newer one: the packet did
			// arrive after all.
			sp.lost = false
			c.cs.Lost--
		}
		sp.acked = true
		c.cs.Acked++
		if d == 0 {
			rtt := now.Sub(sp.at)
			if c.cs.SRTT == 0 {
				c.cs.SRTT = rtt
			} else {
				c.cs.SRTT += (rtt - c.cs.SRTT) / 8
			}
		}
	}
	// What lies more than 32 below ack can no longer be acknowledged,
	// short of a late client packet; the ring reaches 63 packets back.
	from := uint32(1)
	if c.seq > uint32(len(r.p)) {
		from = c.seq - uint32(len(r.p)) + 1
	}
	for seq := from; seq < ack && ack-seq > ackWindow; seq++ {
		if sp := &r.p[seq%64]; sp.seq == seq && !sp.acked && !sp.lost {
			sp.lost = true
			c.cs.Lost++
		}
	}
	if n := c.ring.ack(ack, bits); n > 0 {
		c.cs.Resends += uint64(n)
		s.stats.Resends += uint64(n)
	}
}

func (s *Server) transmit(to netip.AddrPort, b []byte) {
	s.stats.PacketsOut++
	s.stats.BytesOut += uint64(len(b))
	if s.cfg.Hooks.sending(to, b) {
		s.send(to, b)
	}
}

// begin starts a packet to c with the next sequence (§5.2) and the current
// acks.
func (s *Server) begin(c *conn) {
	c.seq++
	ack, bits := c.window.ack()
	_ = s.bld.Reset(rtype.PacketHeader{ConnectionID: c.id, Sequence: c.seq, Ack: ack, AckBits: bits})
}

// flush sends the packet being built to c.
func (s *Server) flush(c *conn, now time.Time) {
	r := &c.sent
	if old := &r.p[c.seq%64]; old.seq != 0 && !old.acked && !old.lost {
		c.cs.Lost++
	}
	r.p[c.seq%64] = sentPacket{seq: c.seq, at: now}
	c.cs.Sent++
	s.transmit(c.addr, s.bld.Bytes())
}

// put adds m to the packet being built for c, starting one if open is
// false, and sending it to start another when m does not fit: no datagram
// exceeds 548 bytes (§2.2). It returns true: a packet is open.
func put[M rtype.Message](s *Server, c *conn, m M, open bool, now time.Time) bool {
	if !open {
		s.begin(c)
	}
	if rtype.Add(&s.bld, m) == rtype.ErrNoRoom {
		s.flush(c, now)
		s.begin(c)
		_ = rtype.Add(&s.bld, m)
	}
	return true
}

// stamp gives e the server tick at sending time (§8.2, §8.3), and a
// creation the entity's current position: a message queued by Spawn or
// Destroy goes out at the next Tick, and a resent one (§13.4) may be many
// ticks late, when the entity has moved.
func (s *Server) stamp(e *entityEvent) {
	if e.destroy {
		e.gone.ServerTick = s.tick
		return
	}
	e.create.ServerTick = s.tick
	if w, ok := s.world.get(e.create.NetworkID); ok {
		e.create.X, e.create.Y, e.create.Rotation = w.x, w.y, w.rot
	}
}

// Tick advances the server tick, closes the connections silent for
// InactivityTimeout (§13.3), and sends each player, in datagrams of at most
// 548 bytes (§2.2), the entity events it has not received: new ones, and
// with reliable events those whose packet was lost and a second copy of
// each DestroyEntity sent at the previous Tick (§8.3, §13.4); every
// SnapshotInterval ticks it also sends a Snapshot of the whole world, split
// into messages of at most 47 states that all carry the same serverTick,
// each in its own packet (§8.1). Nothing goes to a connection that has not
// sent a valid connected packet yet (§12): a client gets the world once its
// first packet (an Input, a Ping, even an empty packet) arrives, and a
// connection that acknowledged none of the last SendBudget packets gets no
// world until it does (§12). Call it once per game tick, after the game
// has moved the world.
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
			s.states = append(s.states, rtype.EntityState{NetworkID: e.id, EntityType: uint8(e.arch), X: e.x, Y: e.y, Rotation: e.rot})
		}
	}
	for i := range s.conns {
		if c := &s.conns[i]; c.active {
			s.sendTick(c, snap, now)
		}
	}
}

// sendTick sends c its entity events, then the Snapshot messages, each in
// its own packet, the first one sharing a packet with the last events when
// there is room.
func (s *Server) sendTick(c *conn, snap bool, now time.Time) {
	open := false
	reliable := !s.cfg.DisableReliableEvents
	if s.overBudget(c) {
		// The world waits, and a probe per packet received lets a real
		// client behind a lossy link acknowledge, which resumes it.
		if c.probeDue {
			c.probeDue = false
			c.lastSent = s.tick
			s.begin(c)
			s.flush(c, now)
		}
		return
	}
	c.probeDue = false
	before := c.seq // packets of earlier Ticks
	for i := range c.ring.ev {
		e := &c.ring.ev[i]
		// A DestroyEntity sent in an earlier packet goes once more
		// without waiting for its ack (§8.3, §13.4).
		echo := e.echo && e.inFlight && e.seq <= before
		if e.cancelled || e.inFlight && !echo {
			continue
		}
		s.stamp(e)
		if e.destroy {
			open = put(s, c, e.gone, open, now)
		} else {
			open = put(s, c, e.create, open, now)
		}
		if echo {
			c.cs.RedundantDestroys++
			s.stats.RedundantDestroys++
		}
		e.echo = reliable && e.destroy && e.first == 0
		if e.destroy {
			e.prev = e.seq
		}
		e.inFlight, e.seq = true, c.seq
		if e.first == 0 {
			e.first = c.seq
		}
	}
	if !reliable {
		c.ring.reset()
	}
	if snap {
		states := s.states
		for first := true; first || len(states) > 0; first = false {
			n := min(len(states), rtype.MaxSnapshotStates)
			m := rtype.Snapshot{ServerTick: s.tick, States: states[:n:n]}
			states = states[n:]
			if open && (!first || m.Len() > s.bld.Available()) {
				s.flush(c, now)
				open = false
			}
			if !open {
				s.begin(c)
				open = true
			}
			_ = rtype.Add(&s.bld, m)
			s.stats.Snapshots++
		}
	}
	if !open && reliable && len(c.ring.ev) > 0 && s.tick-c.lastSent >= probeTicks {
		// Events wait for acks, and acks only move when the client
		// receives something newer: without Snapshots, an empty packet
		// (valid, §5.3) makes the client's next ack show what was lost.
		s.begin(c)
		open = true
	}
	if open {
		c.lastSent = s.tick
		s.flush(c, now)
	}
}

// overBudget reports whether c acknowledged none of the last SendBudget
// packets sent to it (§12): the address may be spoofed, and the server
// sends it no more of the world until an ack covers a recent packet.
func (s *Server) overBudget(c *conn) bool {
	return s.cfg.SendBudget > 0 && c.seq-c.ackTop >= uint32(s.cfg.SendBudget)
}

// probeTicks is how many ticks without a packet a connection with entity
// events in flight waits before it gets an empty one.
const probeTicks = 3
