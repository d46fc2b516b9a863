package session

// Reliable entity state (§5.2, §13.4). Version 1 sends CreateEntity and
// DestroyEntity once; a lost destruction leaves a ghost. Using ack and
// ackBits as §5.2 allows, the server keeps no message log but, per entity
// and connection, what the client is known to hold, and sends what differs
// from the world: memory follows the world, not the spawn rate, and an
// entity created and destroyed before its CreateEntity went out costs
// nothing.
//
// A client following only §8.2 and §8.3 (ignore a CreateEntity for a known
// id and a DestroyEntity for an unknown one) ends with the server's world:
// once a CreateEntity went out, the DestroyEntity is sent until a copy is
// acknowledged, and again if the acks then show a creation copy arriving,
// which may have overtaken it, or if a creation copy is lost only by
// inference (it left the window unacknowledged, but the acks that would
// show it may be lost). Only a client losing maxDestroyTries copies of one
// DestroyEntity is given up on.

// repPhase is where one entity stands with one client.
type repPhase uint8

const (
	// repAbsent: the client does not hold the entity and is owed nothing.
	repAbsent repPhase = iota
	// repPending: the entity is in the world, no CreateEntity sent yet.
	repPending
	// repCreating: CreateEntity copies sent, none known to have arrived.
	repCreating
	// repHeld: a CreateEntity arrived: the client holds the entity.
	repHeld
	// repDoomed: the entity left the world and the client holds it or may;
	// its DestroyEntity is not sent yet.
	repDoomed
	// repDestroying: DestroyEntity copies sent, none known to have arrived
	// (or the acks showed a creation copy that may have come after them):
	// a copy is owed whenever the last seems lost.
	repDestroying
	// repDestroyed: a DestroyEntity arrived, but a creation copy still in
	// flight could arrive after it (§5.2 processes out-of-order packets).
	repDestroyed
)

// replica is one entity as one client is known to hold it: its phase and
// the packets in flight with a copy of each message, resolved by the acks.
type replica struct {
	phase repPhase
	// due asks Tick for a copy of the phase's message, CreateEntity or
	// DestroyEntity, whose last copy seems lost.
	due bool
	// echo asks for a DestroyEntity's second copy at the next Tick, before
	// any ack, so a lost destruction rarely needs a resend (§8.3).
	echo bool
	// creates and destroys count the packets in flight with a copy.
	creates, destroys uint8
	// tries counts the DestroyEntity copies lost: past maxDestroyTries the
	// server gives up on a client that loses them all (§12).
	tries uint8
	// last is the packet that carried the latest copy.
	last uint32
	// fence is the first packet whose DestroyEntity settles the entity: a
	// CreateEntity lost only by inference may be processed, even after an
	// earlier DestroyEntity, until the client's highest is 32 past it (§5.2).
	fence uint32
}

// maxDestroyTries is how many DestroyEntity copies a client may lose before
// the server gives up: at 20% loss all are lost once in about 10¹¹
// destructions, while a client acking all but those cannot pin destroyed
// entities for ever.
const maxDestroyTries = 16

// owed reports whether a first message, a due copy or an echo is owed now.
func (r *replica) owed() bool {
	return r.phase == repPending || r.phase == repDoomed || r.due || r.echo && r.phase == repDestroying
}

// resend reports whether the message owed is a copy of one sent before.
func (r *replica) resend() bool {
	return r.due && (r.phase == repCreating || r.phase == repDestroying)
}

// settled reports whether nothing about the entity is owed or in flight.
func (r *replica) settled() bool {
	return r.phase == repAbsent && r.creates == 0 && r.destroys == 0
}

// spawned: the entity entered the world, or its client joined (§8.2, §10).
func (r *replica) spawned() { *r = replica{phase: repPending} }

// forgotten: the client left; nothing about the entity matters any more.
func (r *replica) forgotten() { *r = replica{} }

// killed: the entity left the world. A client never sent its CreateEntity
// is owed nothing; any other may hold it and is owed its DestroyEntity.
func (r *replica) killed() {
	switch r.phase {
	case repPending:
		r.phase, r.due = repAbsent, false
	case repCreating, repHeld:
		r.phase, r.due = repDoomed, false
	}
}

// sentCreate: a CreateEntity copy went in seq; unreliable (v1), it is held.
func (r *replica) sentCreate(seq uint32, reliable bool) {
	r.due = false
	switch {
	case !reliable:
		r.phase = repHeld
		return
	case r.phase == repPending:
		r.phase = repCreating
	}
	r.creates++
	r.last = seq
}

// sentDestroy: a DestroyEntity copy went in packet seq, the first one or
// its echo owed at the next Tick, or a resend, after which none is owed.
func (r *replica) sentDestroy(seq uint32, reliable bool) {
	if !reliable {
		*r = replica{}
		return
	}
	r.echo = r.phase == repDoomed // only the first copy is echoed
	r.phase, r.due = repDestroying, false
	r.destroys++
	r.last = seq
}

// ackedCreate: a packet with a CreateEntity copy arrived. After the
// entity left the world, that copy may have arrived after a DestroyEntity,
// so one more goes.
func (r *replica) ackedCreate() {
	r.creates = dec(r.creates)
	switch r.phase {
	case repCreating:
		r.phase, r.due = repHeld, false
	case repDestroying, repDestroyed:
		r.phase, r.due, r.echo = repDestroying, true, false
	}
	// repDoomed: its first DestroyEntity is owed anyway.
}

// lostCreate: packet seq, with a CreateEntity copy, left the window never
// acknowledged. The creation is resent once no copy is in flight; a
// destroyed entity gets its DestroyEntity again past the fence, since the
// copy may have been processed all the same.
func (r *replica) lostCreate(seq uint32) {
	r.creates = dec(r.creates)
	r.fence = max(r.fence, seq+ackWindow+1)
	switch r.phase {
	case repCreating:
		r.due = r.due || r.creates == 0
	case repDestroying, repDestroyed:
		r.phase, r.due = repDestroying, true
	}
}

// ackedDestroy: the packet seq with a DestroyEntity copy arrived; done
// unless a creation copy is still in flight, or may have been processed
// after it (fence).
func (r *replica) ackedDestroy(seq uint32) {
	r.destroys = dec(r.destroys)
	if seq < r.fence {
		r.due = r.due || r.phase == repDestroying && r.destroys == 0
		return
	}
	if r.phase == repDestroying {
		r.phase, r.due, r.echo = repDestroyed, false, false
	}
	if r.phase == repDestroyed && r.creates == 0 {
		r.phase = repAbsent
	}
}

// lostDestroy: a packet with a DestroyEntity copy was lost: it is sent
// again once no copy is in flight, unless the client lost so many that
// the server gives up.
func (r *replica) lostDestroy() {
	r.destroys = dec(r.destroys)
	if r.phase != repDestroying {
		return
	}
	if r.tries++; r.tries >= maxDestroyTries {
		r.phase, r.due, r.echo = repAbsent, false, false
		return
	}
	r.due = r.due || r.destroys == 0
}

// suspect: the acks show a later packet than seq received and seq not yet
// (§5.1). If seq carried the latest copy, another goes now rather than once
// seq leaves the window; a late duplicate is harmless (§8.2, §8.3).
func (r *replica) suspect(seq uint32) {
	if r.last == seq && (r.phase == repCreating || r.phase == repDestroying) {
		r.due = true
	}
}

func dec(n uint8) uint8 {
	if n == 0 {
		return 0
	}
	return n - 1
}
