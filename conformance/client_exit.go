package conformance

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// A client that ends by itself during a case it was not made to quit in:
//
//   - a non-zero status or a signal is a crash (an uncaught exception on
//     a malformed message, a bounds check): §12 asks an implementation to
//     survive whatever the network sends, so the case fails, whatever its
//     verdict was, and the next case's fresh client goes on;
//   - a client left without a connection, Rejected (§4.4) or given up on
//     (§4.2), may end with any status, its own report of not getting in;
//     only a signal is a crash there;
//   - status 0 is the client's own choice, legitimate before a Welcome (it
//     gives up after 10 s, §4.2; it stops on Rejected, §4.4): the case
//     judges what the client sent, as a client that lives on would be. A
//     case that sent it a packet to drop or process and waits for what it
//     does next fails once the client ended instead (remote.gone): it did
//     not drop or process the packet and go on;
//   - a client of a [Client] other than [Command] tells no status: its
//     end is judged as status 0.

// procEnd is how a process started by Command ended.
type procEnd struct {
	at    time.Time
	state *os.ProcessState
}

// procEnds maps the done channel of each process Command started to its
// end, set before done closes; startClient forgets it once the case ended.
var procEnds sync.Map // <-chan struct{} → *procEnd

// watchCrash wraps a client case's body: once it returned, a crash of its
// client the case did not make quit fails it (§12).
func watchCrash(run func(*check)) func(*check) {
	return func(t *check) {
		defer t.judgeCrash()
		run(t)
	}
}

// judgeCrash fails the case, past its own verdict, when its client
// crashed without being asked to quit.
func (t *check) judgeCrash() {
	r := t.cli.harness.current()
	if r == nil {
		return
	}
	crash, ok := r.crashed()
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.judged, strings.Contains(t.detail, crash):
	case t.outcome == Fail:
		t.detail += "; then " + crash
	default:
		t.outcome, t.detail = Fail, crash
	}
}

// crashed says how the client crashed, if it ended by itself with a
// non-zero status or a signal.
func (r *remote) crashed() (string, bool) {
	if !r.ended() || r.quitting.Load() {
		return "", false
	}
	e, ok := procEnds.Load(r.done)
	if !ok {
		return "", false
	}
	st := e.(*procEnd).state
	if st == nil || st.ExitCode() == 0 || r.unwelcome.Load() && st.ExitCode() > 0 {
		return "", false
	}
	return r.endOf() + ", during the case (did it crash?)", true
}

// endOf says, for a detail, how and when the case's client ended.
func (r *remote) endOf() string {
	at := r.h.endedAt(r.self)
	if e, ok := procEnds.Load(r.done); ok {
		end := e.(*procEnd)
		at = end.at
		if st := end.state; st != nil && st.ExitCode() >= 0 {
			return fmt.Sprintf("the client exited with status %d at %v", st.ExitCode(), r.t.at(at))
		} else if st != nil {
			return fmt.Sprintf("the client ended at %v (%v)", r.t.at(at), st)
		}
	}
	if at.IsZero() {
		return "the client ended"
	}
	return fmt.Sprintf("the client ended at %v", r.t.at(at))
}

// gone fails the case when the client ended by itself after what was sent
// to it: a packet it had to drop or process, and go on (§5, §8, §12).
func (r *remote) gone(what string) {
	if crash, ok := r.crashed(); ok {
		r.t.Failf("%s; %s", what, crash)
	}
	if r.ended() && !r.quitting.Load() {
		r.t.Failf("%s; %s, without being asked to quit: it must drop or process a packet and go on", what, r.endOf())
	}
}
