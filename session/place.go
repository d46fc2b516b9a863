package session

import "github.com/rtypeproto/rtype/internal/fsm"

// placeState is where an entry of the Server's fixed tables, a player slot
// or a place in the waiting queue, is in its life. It changes only by the
// named transitions of placeMachine: take (join for a slot, enqueue for the
// queue) and release (closeConn, unqueue).
type placeState uint8

const (
	// placeFree: the entry holds no client.
	placeFree placeState = iota
	// placeTaken: the entry holds a client's peer.
	placeTaken
	numPlaceStates
)

var placeStateNames = []string{"Free", "Taken"}

func (s placeState) String() string { return fsm.Name(placeStateNames, s, "placeState") }

// placeEvent is a named transition of a placeState.
type placeEvent uint8

const (
	placeTake placeEvent = iota
	placeRelease
	numPlaceEvents
)

var placeEventNames = []string{"take", "release"}

func (e placeEvent) String() string { return fsm.Name(placeEventNames, e, "placeEvent") }

// placeMachine holds an entry's transitions: only a free entry is taken, and
// freeing a free one does nothing, as Close frees every entry.
var placeMachine = fsm.New("place", numPlaceStates, numPlaceEvents).
	On(placeTake, fsm.Of(placeFree), placeTaken).
	On(placeRelease, fsm.Of(placeTaken), placeFree).
	On(placeRelease, fsm.Of(placeFree), fsm.Stay)
