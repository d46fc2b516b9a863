package session

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Transitions of one entity's replica with one client (§8.2, §8.3,
// §13.4): each row applies named transitions in order and states where the
// replica ends.
func TestReplica_13_4_Transitions(t *testing.T) {
	type step func(r *replica)
	var (
		spawned      = func(r *replica) { r.spawned() }
		killed       = func(r *replica) { r.killed() }
		create       = func(seq uint32) step { return func(r *replica) { r.sentCreate(seq, true) } }
		createV1     = func(r *replica) { r.sentCreate(1, false) }
		destroy      = func(seq uint32) step { return func(r *replica) { r.sentDestroy(seq, true) } }
		destroyV1    = func(r *replica) { r.sentDestroy(1, false) }
		ackedCreate  = func(r *replica) { r.ackedCreate() }
		lostCreate   = func(seq uint32) step { return func(r *replica) { r.lostCreate(seq) } }
		ackedDestroy = func(seq uint32) step { return func(r *replica) { r.ackedDestroy(seq) } }
		lostDestroy  = func(r *replica) { r.lostDestroy() }
		suspect      = func(seq uint32) step { return func(r *replica) { r.suspect(seq) } }
	)
	// giveUp: a held entity destroyed, then every DestroyEntity copy lost.
	giveUp := func() []step {
		steps := []step{spawned, create(3), ackedCreate, killed}
		for k := range uint32(maxDestroyTries) {
			steps = append(steps, destroy(100+k), lostDestroy)
		}
		return steps
	}
	tests := []struct {
		name  string
		steps []step
		want  replica
	}{
		{"spawned: a creation is owed", []step{spawned}, replica{phase: repPending}},
		{"never sent, destroyed: nothing owed", []step{spawned, killed}, replica{}},
		{"sent", []step{spawned, create(3)}, replica{phase: repCreating, creates: 1, last: 3}},
		{"sent and acknowledged: held", []step{spawned, create(3), ackedCreate}, replica{phase: repHeld, last: 3}},
		{"sent and lost: sent again", []step{spawned, create(3), lostCreate(3)}, replica{phase: repCreating, due: true, last: 3, fence: 36}},
		{"a later packet acknowledged first: sent again at once", []step{spawned, create(3), suspect(3)}, replica{phase: repCreating, due: true, creates: 1, last: 3}},
		{"an older copy suspected: the latest still counts", []step{spawned, create(3), create(5), suspect(3)}, replica{phase: repCreating, creates: 2, last: 5}},
		{"one of two copies lost: no resend", []step{spawned, create(3), create(5), lostCreate(3)}, replica{phase: repCreating, creates: 1, last: 5, fence: 36}},
		{"sent, destroyed before any ack: the client may hold it", []step{spawned, create(3), killed}, replica{phase: repDestroying, due: true, creates: 1}},
		{"held, destroyed", []step{spawned, create(3), ackedCreate, killed}, replica{phase: repDestroying, due: true}},
		{"first DestroyEntity owes its echo", []step{spawned, create(3), ackedCreate, killed, destroy(4)}, replica{phase: repDestroying, echo: true, destroys: 1, last: 4}},
		{"the echo is the last copy owed", []step{spawned, create(3), ackedCreate, killed, destroy(4), destroy(5)}, replica{phase: repDestroying, destroys: 2, last: 5}},
		{"DestroyEntity acknowledged: done", []step{spawned, create(3), ackedCreate, killed, destroy(4), ackedDestroy(4)}, replica{last: 4}},
		{"both copies lost: sent again", []step{spawned, create(3), ackedCreate, killed, destroy(4), destroy(5), lostDestroy, lostDestroy}, replica{phase: repDestroying, due: true, tries: 2, last: 5}},
		{"one copy lost, the other in flight: wait", []step{spawned, create(3), ackedCreate, killed, destroy(4), destroy(5), lostDestroy}, replica{phase: repDestroying, destroys: 1, tries: 1, last: 5}},
		{"destroyed while a creation is in flight: wait for it", []step{spawned, create(3), killed, destroy(4), ackedDestroy(4)}, replica{phase: repDestroyed, creates: 1, last: 4}},
		{"that creation lost, so the acks say: it may have come after, destroyed again", []step{spawned, create(3), killed, destroy(4), ackedDestroy(4), lostCreate(3)}, replica{phase: repDestroying, due: true, last: 4, fence: 36}},
		{"a copy before the fence settles nothing", []step{spawned, create(3), killed, destroy(4), destroy(5), lostCreate(3), ackedDestroy(5)}, replica{phase: repDestroying, due: true, destroys: 1, last: 5, fence: 36}},
		{"a copy past the fence settles it", []step{spawned, create(3), killed, destroy(4), lostCreate(3), destroy(40), ackedDestroy(40)}, replica{destroys: 1, last: 40, fence: 36}},
		{"that creation arrived after: destroyed again", []step{spawned, create(3), killed, destroy(4), ackedDestroy(4), ackedCreate}, replica{phase: repDestroying, due: true, last: 4}},
		{"a creation acknowledged while destroying: sent again", []step{spawned, create(3), killed, destroy(4), ackedCreate}, replica{phase: repDestroying, due: true, destroys: 1, last: 4}},
		{"every creation lost after destruction: still destroyed", []step{spawned, create(3), killed, lostCreate(3)}, replica{phase: repDestroying, due: true, fence: 36}},
		{"a client that loses every DestroyEntity is given up on", giveUp(), replica{destroys: 0, tries: maxDestroyTries, last: 100 + maxDestroyTries - 1}},
		{"version 1: a creation sent counts as held", []step{spawned, createV1}, replica{phase: repHeld}},
		{"version 1: a destruction sent is done", []step{spawned, createV1, killed, destroyV1}, replica{}},
		{"acks of a settled entity change nothing", []step{ackedDestroy(1), lostDestroy, ackedCreate, suspect(1)}, replica{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r replica
			for _, s := range tt.steps {
				s(&r)
			}
			if d := cmp.Diff(tt.want, r, cmp.AllowUnexported(replica{})); d != "" {
				t.Errorf("replica (-want +got):\n%s", d)
			}
		})
	}
}
