package session

import "github.com/rtypeproto/rtype"

// Reliable entity events (§5.2, §13.4). Version 1 sends CreateEntity and
// DestroyEntity once, so a lost destruction leaves a ghost on the client.
// §5.2 lets a sender use ack and ackBits to retransmit important messages:
// each event remembers the sequence of the packet that last carried it, and
// when the client's ack and ackBits show that packet lost, the event goes
// in the next packet again. The wire format is unchanged, and a client that
// only follows §8.2 and §8.3 (a CreateEntity for a known id and a
// DestroyEntity for an unknown one are ignored, nothing else) ends with the
// server's world: a destroyed entity's CreateEntity is never sent again,
// and when the acks show that creation arrived after its DestroyEntity
// could have, the DestroyEntity is sent again.
//
// A DestroyEntity also goes out a second time, once, in the connection's
// packet of the next Tick, without waiting for an ack: a lost destruction
// leaves a ghost for as long as the resends take, and a few lost copies in
// a row would outlast a second, while a duplicate is harmless, a client
// ignoring a DestroyEntity for an unknown id (§8.3). The event is done when
// either copy arrives.

// entityEvent is a CreateEntity (destroy false) or a DestroyEntity waiting
// for a client or in flight to it.
type entityEvent struct {
	destroy bool
	create  rtype.CreateEntity
	gone    rtype.DestroyEntity
	// inFlight is true once the event was sent in packet seq and until the
	// client's acks show that packet lost. first is the packet that
	// carried it first: every copy rode in a packet of [first, seq].
	inFlight bool
	seq      uint32
	first    uint32
	// echo marks a DestroyEntity sent once and owed its redundant second
	// copy; prev is the packet of the copy before seq, so that a
	// destruction is done when either of its last two copies arrived.
	echo bool
	prev uint32
	// settled marks a creation sent more than once whose last copy
	// arrived: an earlier copy may still arrive, up to 32 packets later
	// (§5.2), so it is watched until then, in case the entity is destroyed.
	settled bool
	// cancelled marks a creation sent whose entity is destroyed since,
	// with gone the destruction: it is never sent again, and is watched
	// until no copy can arrive any more (§5.2); arrived is set when the
	// acks show a packet of [first, seq] received, so that a copy may have
	// overtaken the destruction, which is then sent once more.
	cancelled bool
	arrived   bool
	// seen marks the packets of a cancelled creation's range the acks
	// showed received, bit k for packet seq-k, so that each new one is
	// noticed once; redestroy asks, within one ack, for the destruction
	// to be sent again.
	seen      uint64
	redestroy bool
}

// eventRing holds one connection's entity events in the order they were
// queued. Its capacity is fixed when the server starts: a client that
// never acknowledges costs at most that much, then its connection is
// closed.
type eventRing struct {
	ev []entityEvent
}

func newEventRing(n int) eventRing { return eventRing{ev: make([]entityEvent, 0, n)} }

func (r *eventRing) reset() { r.ev = r.ev[:0] }

func (r *eventRing) full() bool { return len(r.ev) == cap(r.ev) }

// pushCreate queues a CreateEntity; false when the ring is full.
func (r *eventRing) pushCreate(m rtype.CreateEntity) bool {
	if r.full() {
		return false
	}
	r.ev = append(r.ev, entityEvent{create: m})
	return true
}

// pushDestroy queues a DestroyEntity; false when the ring is full. A
// creation of the same id never sent is dropped instead: the client never
// heard of the entity, so it needs neither message. A creation sent but
// not acknowledged is cancelled: never sent again, and watched until its
// packet is acknowledged or too old, since a creation the network delays
// past its destruction would stay for ever on a client that follows only
// §8.2 and §8.3.
func (r *eventRing) pushDestroy(m rtype.DestroyEntity) bool {
	for i := range r.ev {
		e := &r.ev[i]
		if e.destroy || e.cancelled || e.create.NetworkID != m.NetworkID {
			continue
		}
		if !e.inFlight && e.seq == 0 {
			r.ev = append(r.ev[:i], r.ev[i+1:]...)
			return true
		}
		if r.full() {
			return false
		}
		e.cancelled, e.gone = true, m
		e.arrived = e.arrived || e.settled
		if e.settled {
			e.seen = 1 // packet seq arrived before the destruction
		}
		break
	}
	if r.full() {
		return false
	}
	r.ev = append(r.ev, entityEvent{destroy: true, gone: m})
	return true
}

// sent records a CreateEntity sent outside the ring, in answer to a
// QueryEntity (§7.4), in packet seq: as the latest copy of a creation the
// ring holds for that id, or as a new one unless the ring is full. It is
// then resent when lost, as any other.
func (r *eventRing) sent(m rtype.CreateEntity, seq uint32) {
	for i := range r.ev {
		if e := &r.ev[i]; !e.destroy && !e.cancelled && e.create.NetworkID == m.NetworkID {
			e.inFlight, e.seq, e.settled = true, seq, false
			if e.first == 0 {
				e.first = seq
			}
			return
		}
	}
	if r.full() {
		return
	}
	r.ev = append(r.ev, entityEvent{create: m, inFlight: true, seq: seq, first: seq})
}

// destroyAfter returns the index of the destruction of id at from or
// later, or -1.
func (r *eventRing) destroyAfter(from int, id uint32) int {
	for i := from; i < len(r.ev); i++ {
		if r.ev[i].destroy && r.ev[i].gone.NetworkID == id {
			return i
		}
	}
	return -1
}

// acked reports whether packet seq is marked received in ack and ackBits
// (§5.1).
func acked(seq, ack, bits uint32) bool {
	switch {
	case seq == ack:
		return true
	case seq > ack || ack-seq > 32:
		return false
	}
	return bits&(1<<(ack-seq-1)) != 0
}

// ackedIn reports whether ack and ackBits mark any packet of [first, last]
// received.
func ackedIn(first, last, ack, bits uint32) bool {
	if first == 0 || first > last {
		return false
	}
	lo := first
	if ack > ackWindow && lo < ack-ackWindow {
		lo = ack - ackWindow
	}
	for seq := lo; seq <= last && seq <= ack; seq++ {
		if acked(seq, ack, bits) {
			return true
		}
	}
	return false
}

// newlySeen marks the packets of a cancelled creation's range that ack and
// ackBits show received, and reports whether one was not marked before: a
// copy of the creation may have just arrived after the DestroyEntity.
func (e *entityEvent) newlySeen(ack, bits uint32) bool {
	lo := e.first
	if ack > ackWindow && lo < ack-ackWindow {
		lo = ack - ackWindow
	}
	if e.seq-lo >= 64 {
		lo = e.seq - 63
	}
	newly := false
	for seq := lo; seq <= e.seq && seq <= ack; seq++ {
		if bit := uint64(1) << (e.seq - seq); e.seen&bit == 0 && acked(seq, ack, bits) {
			e.seen |= bit
			newly = true
		}
	}
	return newly
}

// gone reports whether no packet up to seq can arrive any more: the client
// drops anything more than 32 below its highest (§5.2).
func gone(seq, ack uint32) bool { return seq < ack && ack-seq > ackWindow }

// ack applies the client's ack and ackBits: events whose packet arrived
// are done, events whose packet the acks show lost are sent again. A packet
// counts as lost when a later one was received and its own bit is clear, or
// when it fell out of the 32-packet window unacknowledged. A cancelled
// creation is done when its packet arrived or can no longer arrive, the
// client dropping anything more than 32 below its highest (§5.2). It
// returns the number of events to resend.
func (r *eventRing) ack(ack, bits uint32) (resend int) {
	if ack == 0 {
		return 0
	}
	keep := r.ev[:0]
	for i, e := range r.ev {
		switch {
		case e.cancelled:
			e.arrived = e.arrived || ackedIn(e.first, e.seq, ack, bits)
			if !gone(e.seq, ack) {
				// A copy the acks show for the first time may have
				// arrived after the DestroyEntity, leaving a ghost
				// on a client that follows only §8.2 and §8.3: the
				// destruction is sent again now, not when the
				// window closes, so the ghost lives one round trip.
				e.redestroy = e.newlySeen(ack, bits)
				break
			}
			if !e.arrived {
				continue // no copy arrived, none can any more
			}
			// A copy arrived, maybe after the DestroyEntity: now that
			// none can follow, the destruction is sent once more.
			j := r.destroyAfter(i+1, e.create.NetworkID)
			if j < 0 {
				e = entityEvent{destroy: true, gone: e.gone}
				resend++
				break
			}
			if r.ev[j].seq != 0 {
				resend++
			}
			r.ev[j].inFlight = false
			continue
		case e.settled:
			if gone(e.seq, ack) {
				continue
			}
		case e.inFlight:
			if acked(e.seq, ack, bits) || e.destroy && e.prev != 0 && acked(e.prev, ack, bits) {
				if e.destroy || e.first == e.seq {
					continue // a late copy of a destruction is harmless
				}
				e.settled = true
				break
			}
			if e.seq < ack {
				e.inFlight, e.echo = false, false
				resend++
			}
		}
		keep = append(keep, e)
	}
	clear(r.ev[len(keep):])
	r.ev = keep
	for i := range r.ev {
		if e := &r.ev[i]; e.redestroy {
			e.redestroy = false
			resend += r.destroyAgain(i, e.gone)
		}
	}
	return resend
}

// destroyAgain sends the destruction m of the creation cancelled at index i
// again, unless it was never sent; it returns 1 when it will be resent. A
// full ring sends nothing now: the creation, still watched, sends it when
// its window closes.
func (r *eventRing) destroyAgain(i int, m rtype.DestroyEntity) int {
	j := r.destroyAfter(i+1, m.NetworkID)
	switch {
	case j >= 0 && !r.ev[j].inFlight && r.ev[j].seq == 0:
		return 0 // never sent: it goes out anyway
	case j >= 0:
		r.ev[j].inFlight = false
		return 1
	case r.full():
		return 0
	}
	r.ev = append(r.ev, entityEvent{destroy: true, gone: m})
	return 1
}
