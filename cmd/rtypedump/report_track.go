package main

import (
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// xTrack follows one moving entity of a client for the report's chart of
// its x over time: as each Snapshot in the capture gives it (§8.1: steps,
// every 50 ms at best), what a client drawing its latest table shows, and as a smooth client draws it: a session.View fed the client's
// CreateEntity, DestroyEntity and Snapshots at their capture times, drawn
// 60 times a second. The entity is the first one a Snapshot shows moving;
// the chart covers trackWindow from then, so its memory is bounded and
// the View is dropped once it is drawn.
type xTrack struct {
	view   *session.View
	known  map[uint32]bool    // ids the view was told of
	lastX  map[uint32]float64 // each id's x at its last Snapshot
	id     uint32             // followed; 0 before one moved
	start  time.Time          // when it was first seen moving
	next   time.Time          // the next frame to draw
	steps  []xPoint
	smooth []xPoint
	done   bool // the window is drawn
}

// xPoint is an x at a time since the track's start.
type xPoint struct {
	t time.Duration
	x float64
}

const (
	// trackWindow is the span of the chart: wide enough for a few lost
	// Snapshots, narrow enough that each 50 ms step shows.
	trackWindow = 2 * time.Second
	trackFrame  = time.Second / 60
	// trackIDs bounds the ids remembered; past it they are forgotten.
	trackIDs = 1 << 16
)

// worldMsg is a message that changes the world a client draws (§8), in
// the order of its packet.
type worldMsg struct {
	create  *rtype.CreateEntity
	destroy *rtype.DestroyEntity
	snap    *rtype.Snapshot
}

// see takes the world messages of a datagram to the client received at
// at, after drawing the frames before it.
func (t *xTrack) see(at time.Time, msgs []worldMsg) {
	if t.done {
		return
	}
	if t.view == nil {
		t.view = session.NewView(session.ViewConfig{})
		t.known, t.lastX = map[uint32]bool{}, map[uint32]float64{}
	}
	t.frames(at)
	if t.done {
		return
	}
	for _, m := range msgs {
		switch {
		case m.create != nil:
			t.view.Create(*m.create, at)
			t.know(m.create.NetworkID)
		case m.destroy != nil:
			t.view.Destroy(*m.destroy, at)
			t.know(m.destroy.NetworkID)
		case m.snap != nil:
			t.snapshot(m.snap, at)
		}
	}
}

// know remembers that the view was told of id.
func (t *xTrack) know(id uint32) {
	if len(t.known) >= trackIDs {
		clear(t.known)
	}
	t.known[id] = true
}

// snapshot feeds s to the view, creating the entities a capture begun
// mid-game never showed created, and follows the first one it shows
// moving.
func (t *xTrack) snapshot(s *rtype.Snapshot, at time.Time) {
	if len(t.lastX) >= trackIDs {
		clear(t.lastX)
	}
	for _, st := range s.States {
		if !t.known[st.NetworkID] {
			t.view.Create(rtype.CreateEntity{ServerTick: s.ServerTick, NetworkID: st.NetworkID, X: st.X, Y: st.Y, Rotation: st.Rotation}, at)
			t.know(st.NetworkID)
		}
		x := st.X.Pixels()
		if last, ok := t.lastX[st.NetworkID]; ok && t.id == 0 && last != x {
			t.id, t.start, t.next = st.NetworkID, at, at
		}
		t.lastX[st.NetworkID] = x
		if st.NetworkID == t.id {
			t.steps = append(t.steps, xPoint{at.Sub(t.start), x})
		}
	}
	t.view.Snapshot(s, at)
}

// frames draws the frames due up to at, within the window.
func (t *xTrack) frames(at time.Time) {
	if t.id == 0 {
		return
	}
	end := t.start.Add(trackWindow)
	for ; !t.next.After(at); t.next = t.next.Add(trackFrame) {
		if !t.next.Before(end) {
			t.done, t.view, t.known, t.lastX = true, nil, nil, nil
			return
		}
		for _, e := range t.view.At(t.next) {
			if e.ID == t.id {
				t.smooth = append(t.smooth, xPoint{t.next.Sub(t.start), e.X})
			}
		}
	}
}

// finish draws the frames up to the end of what was read.
func (t *xTrack) finish(end time.Time) {
	if !t.done && t.view != nil {
		t.frames(end)
	}
}
