package session

import "github.com/rtypeproto/rtype"

// Reliable entity events (§5.2, §13.4). Version 1 sends CreateEntity and
// DestroyEntity once, so a lost destruction leaves a ghost on the client.
// §5.2 lets a sender use ack and ackBits to retransmit important messages:
// each event remembers the sequence of the packet that last carried it, and
// when the client's ack and ackBits show that packet lost, the event goes
// in the next packet again. The wire format is unchanged; a client that
// ignores a CreateEntity for a known id and a DestroyEntity for an unknown
// one, as §8.2 and §8.3 have it, sees each event once.

// entityEvent is a CreateEntity (destroy false) or a DestroyEntity waiting
// for a client or in flight to it.
type entityEvent struct {
	destroy bool
	create  rtype.CreateEntity
	gone    rtype.DestroyEntity
	// inFlight is true once the event was sent in packet seq and until the
	// client's acks show that packet lost.
	inFlight bool
	seq      uint32
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
// heard of the entity, so it needs neither message. A creation already sent
// stays until acknowledged: if it reaches the client after the destruction,
// the client ignores it, its serverTick not being newer (§8.2, §8.3).
func (r *eventRing) pushDestroy(m rtype.DestroyEntity) bool {
	for i := range r.ev {
		e := &r.ev[i]
		if !e.destroy && e.create.NetworkID == m.NetworkID && !e.inFlight && e.seq == 0 {
			r.ev = append(r.ev[:i], r.ev[i+1:]...)
			return true
		}
	}
	if r.full() {
		return false
	}
	r.ev = append(r.ev, entityEvent{destroy: true, gone: m})
	return true
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

// ack applies the client's ack and ackBits: events whose packet arrived
// are done, events whose packet the acks show lost are sent again. A packet
// counts as lost when a later one was received and its own bit is clear, or
// when it fell out of the 32-packet window unacknowledged. It returns the
// number of events to resend.
func (r *eventRing) ack(ack, bits uint32) (resend int) {
	if ack == 0 {
		return 0
	}
	keep := r.ev[:0]
	for _, e := range r.ev {
		if e.inFlight {
			if acked(e.seq, ack, bits) {
				continue
			}
			if e.seq < ack {
				e.inFlight = false
				resend++
			}
		}
		keep = append(keep, e)
	}
	clear(r.ev[len(keep):])
	r.ev = keep
	return resend
}
