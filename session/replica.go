package session

import "github.com/rtypeproto/rtype/internal/fsm"

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

// repState is where one entity stands with one client: what it holds and
// what it is owed.
type repState uint8

const (
	// Absent: the client does not hold the entity and is owed nothing.
	repAbsent repState = iota
	// Pending: the entity is in the world, no CreateEntity sent yet.
	repPending
	// Creating: CreateEntity copies sent, none known to have arrived.
	repCreating
	// CreateDue: as Creating, and the last copy seems lost: one is owed.
	repCreateDue
	// Held: a CreateEntity arrived: the client holds the entity.
	repHeld
	// Doomed: the entity left the world and the client holds it or may;
	// its DestroyEntity is not sent yet.
	repDoomed
	// DestroyEcho: the first DestroyEntity went; its second copy is owed
	// at the next Tick, before any ack, so a lost destruction rarely needs
	// a resend (§8.3).
	repDestroyEcho
	// Destroying: DestroyEntity copies sent, none known to have arrived.
	repDestroying
	// DestroyDue: as Destroying, and no copy counts any more (lost, or
	// arrived before a creation copy that may have come after it): one
	// is owed.
	repDestroyDue
	// Destroyed: a DestroyEntity arrived, but a creation copy still in
	// flight could arrive after it (§5.2 processes out-of-order packets).
	repDestroyed

	numRepStates
)

var repStateNames = []string{
	"Absent", "Pending", "Creating", "CreateDue", "Held", "Doomed",
	"DestroyEcho", "Destroying", "DestroyDue", "Destroyed",
}

func (s repState) String() string { return fsm.Name(repStateNames, s, "repState") }

// repEvent is what happened to one entity, one client or one copy of an
// entity message in flight to it.
type repEvent uint8

const (
	// entered: the entity entered the world, or its client joined (§8.2,
	// §10).
	evEntered repEvent = iota
	// forgotten: the client left; nothing about the entity matters.
	evForgotten
	// left: the entity left the world (§8.3).
	evLeft
	// sentCreate, sentDestroy: a copy went, tracked until the acks resolve
	// it; sentCreateOnce, sentDestroyOnce: it went once, as version 1 does.
	evSentCreate
	evSentCreateOnce
	evSentDestroy
	evSentDestroyOnce
	// createArrived: the acks show a packet with a CreateEntity copy
	// arrived (§5.1).
	evCreateArrived
	// createLost: a packet with a CreateEntity copy left the window never
	// acknowledged (§5.2), another copy still in flight; createLostLast:
	// none is.
	evCreateLost
	evCreateLostLast
	// destroyArrived: a DestroyEntity copy arrived past the fence, a
	// creation copy still in flight; destroySettled: none is.
	evDestroyArrived
	evDestroySettled
	// destroyVoid: a DestroyEntity copy lost, or arrived before the fence
	// (a creation copy lost only by inference may come after it), another
	// copy still in flight; destroyVoidLast: none is.
	evDestroyVoid
	evDestroyVoidLast
	// gaveUp: the client lost maxDestroyTries copies of the DestroyEntity.
	evGaveUp
	// suspected: the acks show a later packet received before the one
	// with the latest copy (§5.1): that copy may be lost.
	evSuspected

	numRepEvents
)

var repEventNames = []string{
	"entered", "forgotten", "left", "sentCreate", "sentCreateOnce",
	"sentDestroy", "sentDestroyOnce", "createArrived", "createLost",
	"createLostLast", "destroyArrived", "destroySettled", "destroyVoid",
	"destroyVoidLast", "gaveUp", "suspected",
}

func (e repEvent) String() string { return fsm.Name(repEventNames, e, "repEvent") }

var repAll = fsm.All(numRepStates)

// repMachine is the replica's machine, every event with every state: the
// one place that says it. docs/replica.md is written from it, and a test
// fails on a pair no rule decides, or two do.
var repMachine = fsm.New("replica", numRepStates, numRepEvents).Total().
	On(evEntered, repAll, repPending).
	On(evForgotten, repAll, repAbsent).
	On(evLeft, fsm.Of(repPending), repAbsent).
	On(evLeft, fsm.Of(repCreating, repCreateDue, repHeld), repDoomed).
	On(evLeft, fsm.AnyOther, fsm.Stay).
	On(evSentCreate, fsm.Of(repPending, repCreateDue), repCreating).
	On(evSentCreate, fsm.AnyOther, fsm.Stay).
	On(evSentCreateOnce, repAll, repHeld).
	On(evSentDestroy, fsm.Of(repDoomed), repDestroyEcho).
	On(evSentDestroy, fsm.Of(repDestroyEcho, repDestroyDue), repDestroying).
	On(evSentDestroy, fsm.AnyOther, fsm.Stay).
	On(evSentDestroyOnce, repAll, repAbsent).
	On(evCreateArrived, fsm.Of(repCreating, repCreateDue), repHeld).
	On(evCreateArrived, fsm.Of(repDestroyEcho, repDestroying, repDestroyed), repDestroyDue).
	On(evCreateArrived, fsm.AnyOther, fsm.Stay).
	On(evCreateLost, fsm.Of(repDestroyEcho, repDestroying, repDestroyed), repDestroyDue).
	On(evCreateLost, fsm.AnyOther, fsm.Stay).
	On(evCreateLostLast, fsm.Of(repCreating), repCreateDue).
	On(evCreateLostLast, fsm.Of(repDestroyEcho, repDestroying, repDestroyed), repDestroyDue).
	On(evCreateLostLast, fsm.AnyOther, fsm.Stay).
	On(evDestroyArrived, fsm.Of(repDestroyEcho, repDestroying, repDestroyDue), repDestroyed).
	On(evDestroyArrived, fsm.AnyOther, fsm.Stay).
	On(evDestroySettled, fsm.Of(repDestroyEcho, repDestroying, repDestroyDue, repDestroyed), repAbsent).
	On(evDestroySettled, fsm.AnyOther, fsm.Stay).
	On(evDestroyVoid, repAll, fsm.Stay). // another copy is in flight: wait for it
	On(evDestroyVoidLast, fsm.Of(repDestroyEcho, repDestroying), repDestroyDue).
	On(evDestroyVoidLast, fsm.AnyOther, fsm.Stay).
	On(evGaveUp, fsm.Of(repDestroyEcho, repDestroying, repDestroyDue), repAbsent).
	On(evGaveUp, fsm.AnyOther, fsm.Stay).
	On(evSuspected, fsm.Of(repCreating), repCreateDue).
	On(evSuspected, fsm.Of(repDestroyEcho, repDestroying), repDestroyDue).
	On(evSuspected, fsm.AnyOther, fsm.Stay)

// replica is one entity as one client is known to hold it: its state and
// the packets in flight with a copy of each message, resolved by the acks.
type replica struct {
	state repState
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

// on moves the replica along ev.
func (r *replica) on(ev repEvent) { r.state = repMachine.Next(r.state, ev) }

// owed reports whether a message is owed now: a first CreateEntity or
// DestroyEntity, a copy of one that seems lost, or the echo.
func (r *replica) owed() bool { return r.owes() != owesNothing }

// owing is which message a replica is owed, if any.
type owing uint8

const (
	owesNothing owing = iota
	owesFirst         // the first CreateEntity or DestroyEntity
	owesResend        // a copy of one that seems lost
	owesEcho          // the DestroyEntity's second copy
)

// owes says which message is owed now, as owed says whether one is.
func (r *replica) owes() owing {
	switch r.state {
	case repPending, repDoomed:
		return owesFirst
	case repCreateDue, repDestroyDue:
		return owesResend
	case repDestroyEcho:
		return owesEcho
	}
	return owesNothing
}

// settled reports whether nothing about the entity is owed or in flight.
func (r *replica) settled() bool {
	return r.state == repAbsent && r.creates == 0 && r.destroys == 0
}

// unsettled reports whether the client lacks the world's view of the
// entity: a message owed or in flight, or one it holds that is gone.
func (r *replica) unsettled() bool { return r.state != repAbsent && r.state != repHeld }

// The transitions below, which world.update applies, each take the packet
// they concern: the one a copy went in or the acks resolved, 0 for none.

// spawned: the entity entered the world, or its client joined.
func (r *replica) spawned(uint32) { *r = replica{}; r.on(evEntered) }

// forgotten: the client left.
func (r *replica) forgotten(uint32) { *r = replica{}; r.on(evForgotten) }

// killed: the entity left the world. A client never sent its CreateEntity
// is owed nothing; any other may hold it and is owed its DestroyEntity.
func (r *replica) killed(uint32) { r.on(evLeft) }

// sentCreate: a CreateEntity copy went in packet seq.
func (r *replica) sentCreate(seq uint32) {
	r.creates++
	r.last = seq
	r.on(evSentCreate)
}

// sentCreateOnce: a CreateEntity went untracked (version 1): it counts as
// held.
func (r *replica) sentCreateOnce(uint32) { r.on(evSentCreateOnce) }

// sentDestroy: a DestroyEntity copy went in packet seq: the first one, its
// echo or a resend.
func (r *replica) sentDestroy(seq uint32) {
	r.destroys++
	r.last = seq
	r.on(evSentDestroy)
}

// sentDestroyOnce: a DestroyEntity went untracked (version 1): done.
func (r *replica) sentDestroyOnce(uint32) { *r = replica{}; r.on(evSentDestroyOnce) }

// refHandlers are, per kind of entity message and per outcome, what a
// copy resolved by the acks does to its replica (§13.4): a kind of message
// carries its handlers, the history only says what became of its packet.
var refHandlers = [...][numOutcomes]func(*replica, uint32){
	creation:    {arrived: (*replica).ackedCreate, lost: (*replica).lostCreate, suspected: (*replica).suspect},
	destruction: {arrived: (*replica).ackedDestroy, lost: (*replica).lostDestroy, suspected: (*replica).suspect},
}

// ackedCreate: a packet with a CreateEntity copy arrived. After the
// entity left the world, that copy may have arrived after a DestroyEntity,
// so one more goes.
func (r *replica) ackedCreate(uint32) {
	r.creates = dec(r.creates)
	r.on(evCreateArrived)
}

// lostCreate: packet seq, with a CreateEntity copy, left the window never
// acknowledged. The creation is resent once no copy is in flight; a
// destroyed entity gets its DestroyEntity again past the fence, since the
// copy may have been processed all the same.
func (r *replica) lostCreate(seq uint32) {
	r.creates = dec(r.creates)
	r.fence = max(r.fence, seq+ackWindow+1)
	r.on(lastOr(r.creates, evCreateLost, evCreateLostLast))
}

// ackedDestroy: the packet seq with a DestroyEntity copy arrived; done
// unless a creation copy is still in flight, or may have been processed
// after it (before the fence: the copy counts for nothing).
func (r *replica) ackedDestroy(seq uint32) {
	r.destroys = dec(r.destroys)
	switch {
	case seq < r.fence:
		r.on(lastOr(r.destroys, evDestroyVoid, evDestroyVoidLast))
	default:
		r.on(lastOr(r.creates, evDestroyArrived, evDestroySettled))
	}
}

// lostDestroy: a packet with a DestroyEntity copy was lost: it is sent
// again once no copy is in flight, unless the client lost so many that
// the server gives up.
func (r *replica) lostDestroy(uint32) {
	r.destroys = dec(r.destroys)
	switch r.state {
	case repDestroyEcho, repDestroying, repDestroyDue:
	default:
		return
	}
	if r.tries++; r.tries >= maxDestroyTries {
		r.on(evGaveUp)
		return
	}
	r.on(lastOr(r.destroys, evDestroyVoid, evDestroyVoidLast))
}

// suspect: the acks show a later packet than seq received and seq not yet
// (§5.1). If seq carried the latest copy, another goes now rather than once
// seq leaves the window; a late duplicate is harmless (§8.2, §8.3).
func (r *replica) suspect(seq uint32) {
	if r.last == seq {
		r.on(evSuspected)
	}
}

// lastOr is ev while copies remain in flight, last once none does.
func lastOr(inFlight uint8, ev, last repEvent) repEvent {
	if inFlight == 0 {
		return last
	}
	return ev
}

func dec(n uint8) uint8 {
	if n == 0 {
		return 0
	}
	return n - 1
}
