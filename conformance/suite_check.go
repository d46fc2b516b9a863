package conformance

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"sync"
	"time"
)

// check is the state of one running case: its deadline, the datagrams it
// exchanged, what it ends with, and what it must close. What only one
// mode's cases have is in srv (server mode) or cli (client mode); the
// other mode's stays zero.
type check struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time
	// limit is the case's own time, which in client mode starts once its
	// client sent a Hello.
	limit  time.Duration
	record bool
	// net is the network the case opens its sockets on; ownNet is true
	// when it is the options' own, not the system's UDP.
	net    Network
	ownNet bool

	// suite is what the cases of the run share; id is the case's.
	suite *suite
	id    string

	srv serverSide
	cli clientSide

	mu       sync.Mutex
	outcome  Outcome
	detail   string
	exchange []Datagram
	dropped  int
	kept     int // bytes in exchange
	cleanups []func()
	// conns are the sockets the case opened, closed under a case that
	// outlived its time so that it returns (unblock).
	conns []Conn
	// expired says the case ended not run because a wait for an answer
	// ran out (waitedOut): beside other cases, it is run again alone.
	expired bool
	// evident says the case fails on what it saw (failSeen), which no
	// packet its client dropped can have made: the drop blame leaves it.
	evident bool
	// tapping says a tap runs, whose verdict reads every datagram
	// (suite_dropped.go's blame).
	tapping bool
	// judged freezes the outcome once the case returned or was given
	// up on: what its cleanups or a case still running do after that
	// changes nothing, and no datagram is recorded.
	judged bool
}

// serverSide is what a case of server mode has of its own: the server
// under test and what the run's first Hellos got, the run's scheduler
// and the ladder, the players the case connected, and the server packets
// they dropped. players, wantOf, vacuous, lost and lostCount are guarded by
// check.mu.
type serverSide struct {
	// server is the implementation under test.
	server netip.AddrPort
	// noWelcome says what the server answered the run's first Hellos
	// with when that was no valid Welcome.
	noWelcome string
	// heard follows the server's last datagram, for the case a liveness
	// stop names; nil outside the cases.
	heard *lastHeard
	// steady, when not nil, tells the run that what a case marked beside
	// sets up is in place.
	steady func()
	// wantOf is the capability the case was not run for want of, plus
	// one, or 0.
	wantOf capability
	// vacuous says the case was not run as its rule never applied
	// (check.vacuous).
	vacuous bool
	// players counts the case's players connected now.
	players int
	// lost lists the server packets with messages the case's players
	// dropped (suite_dropped.go), lostCount counts them.
	lost      []lostPacket
	lostCount int
}

// clientSide is what a case of client mode has of its own: harness is
// the scripted server; startWait is how long the case waits for its
// client's first Hello, nth and of its number among the cases of the run
// that need a client, and title its own, for the prompts of a client
// started by hand; absent, guarded by check.mu, says no client came.
type clientSide struct {
	harness   *harness
	startWait time.Duration
	nth, of   int
	title     string
	absent    bool // no client came: started by noClient
}

// maxExchange bounds the datagrams a case keeps for its report, whatever
// the implementation sends.
const (
	maxExchange = 400
	// maxExchangeBytes bounds their bytes: 400 datagrams of 548 bytes fit,
	// 400 oversize ones of 64 KiB would be 25 MiB.
	maxExchangeBytes = 256 << 10
)

// Failf ends the case as failed; detail says what was sent and what came
// back or did not, by when.
func (t *check) Failf(format string, args ...any) {
	t.end(Fail, fmt.Sprintf(format, args...))
}

// failSeen ends the case as failed on what it saw happen, such as a ship
// moving under Inputs it must drop, not on what did not come: a server
// packet its client dropped (suite_dropped.go) cannot have made that, and
// the failure stands.
func (t *check) failSeen(format string, args ...any) {
	t.mu.Lock()
	t.evident = true
	t.mu.Unlock()
	t.Failf(format, args...)
}

// Skipf ends the case as skipped: its precondition could not be met.
func (t *check) Skipf(format string, args ...any) {
	t.end(NotRun, fmt.Sprintf(format, args...))
}

func (t *check) end(o Outcome, detail string) {
	if o != Pass {
		o, detail = t.blame(o, detail)
	}
	t.mu.Lock()
	if !t.judged {
		t.outcome, t.detail = o, detail
	}
	t.mu.Unlock()
	runtime.Goexit()
}

// waitedOut ends the case as not run because a wait for an answer ran
// out: an implementation busy with the cases beside it may answer late,
// so the run runs such a case again alone (scheduler.again, and
// clientRun.again in client mode).
func (t *check) waitedOut(format string, args ...any) {
	t.mu.Lock()
	t.expired = true
	t.mu.Unlock()
	t.Skipf(format, args...)
}

// timedOut reports whether the case ended not run on a wait that ran out.
func (t *check) timedOut() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.expired && t.outcome == NotRun
}

// overran ends a case whose context is done: it ran past its time, or
// the run was interrupted, which runCase then reports.
func (t *check) overran() {
	t.end(Fail, fmt.Sprintf("the case did not finish within %v", t.limit))
}

// noClient notes that the case's client never came: the run's first
// such case makes the client unreachable.
func (t *check) noClient() {
	t.mu.Lock()
	t.cli.absent = true
	t.mu.Unlock()
}

// clientAbsent reports whether the case's client never came.
func (t *check) clientAbsent() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cli.absent
}

// restart counts the case's time from at, when its client's first Hello
// came: the client's start, and the wait for a client started by hand,
// are not the case's. What was recorded before at is no datagram of the
// case's client; what came since is kept, its times counted from at.
func (t *check) restart(at time.Time) {
	t.mu.Lock()
	shift := at.Sub(t.start)
	kept, bytes := t.exchange[:0], 0
	for _, d := range t.exchange {
		if d.At >= shift {
			d.At -= shift
			kept = append(kept, d)
			bytes += len(d.Bytes)
		}
	}
	t.exchange, t.kept, t.start = kept, bytes, at
	t.mu.Unlock()
	t.deadline = at.Add(t.limit)
}

// settled tells the run that the case's set-up is done: the cases after
// a case marked beside start then.
func (t *check) settled() {
	if t.srv.steady != nil {
		t.srv.steady()
	}
}

// closeAtEnd closes conn when the case ends, or under it when it
// outlives its time.
func (t *check) closeAtEnd(conn Conn) {
	t.mu.Lock()
	t.conns = append(t.conns, conn)
	t.mu.Unlock()
	t.cleanup(func() { conn.Close() })
}

// cleanup registers f to run when the case ends, last registered first.
func (t *check) cleanup(f func()) {
	t.mu.Lock()
	t.cleanups = append(t.cleanups, f)
	t.mu.Unlock()
}

// since returns the time since the case started, rounded for details.
func (t *check) since() time.Duration {
	return time.Since(t.start).Round(time.Millisecond)
}

// at returns when tm was, counted from the case's start and rounded, for
// details.
func (t *check) at(tm time.Time) time.Duration {
	return tm.Sub(t.start).Round(time.Millisecond)
}

// upTo returns the end of a wait of d from now, within the case's
// deadline, and how long that is: what the wait's report says it waited.
func (t *check) upTo(d time.Duration) (time.Time, time.Duration) {
	at := t.within(d)
	return at, time.Until(at).Round(time.Millisecond)
}

// within returns the earlier of now+d and the case's deadline.
func (t *check) within(d time.Duration) time.Time {
	at := time.Now().Add(d)
	if at.After(t.deadline) {
		return t.deadline
	}
	return at
}

// note records one datagram for the report.
func (t *check) note(src, dst netip.AddrPort, handshake bool, b []byte, at time.Time) {
	t.srv.heard.note(t.id, src, dst, at)
	if !t.record {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.judged {
		return
	}
	if len(t.exchange) >= maxExchange || t.kept+len(b) > maxExchangeBytes {
		t.dropped++
		return
	}
	t.kept += len(b)
	t.exchange = append(t.exchange, Datagram{
		At: at.Sub(t.start), Src: src, Dst: dst, Handshake: handshake,
		Bytes: append([]byte(nil), b...),
	})
}

// runCase runs c with a fresh check and returns its result. It never takes
// much longer than limit+extra: a case still running then is reported
// failed, and its sockets are closed under it so that it returns before
// its cleanups run. A case cut short by the end of parent is a skip,
// "interrupted".
func runCase(parent context.Context, c Case, limit, extra time.Duration, record bool, setup func(*check)) Result {
	ctx, cancel := context.WithTimeout(parent, limit+extra)
	defer cancel()
	t := &check{ctx: ctx, start: time.Now(), record: record, limit: limit, id: c.ID, suite: newSuite(ServerMode)}
	t.deadline = t.start.Add(limit)
	setup(t)
	t.wait(t.launch(c))
	if parent.Err() != nil {
		t.outcome, t.detail, t.exchange = NotRun, "interrupted", nil
	}
	cleanups := t.cleanups
	t.cleanups = nil
	t.mu.Unlock()
	for i := len(cleanups) - 1; i >= 0; i-- {
		protect(cleanups[i])
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	r := Result{Case: c, Outcome: t.outcome, Detail: t.detail, Duration: time.Since(t.start), Vacuous: t.outcome == NotRun && t.srv.vacuous}
	t.suite.ended(c.ID, r.Outcome, t.srv.wantOf)
	if r.Outcome == Fail && record {
		r.Exchange = append([]Datagram(nil), t.exchange...)
		if t.dropped > 0 {
			r.Detail += fmt.Sprintf(" (%d more datagrams not kept)", t.dropped)
		}
	}
	return r
}

// launch runs the case in a goroutine of its own and returns its end.
func (t *check) launch(c Case) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			// A defect of the suite itself must not end the run.
			if v := recover(); v != nil {
				t.mu.Lock()
				if !t.judged {
					t.outcome, t.detail = Fail, fmt.Sprintf("rtypecheck internal error: %v", v)
				}
				t.mu.Unlock()
			}
		}()
		c.run(t)
	}()
	return done
}

// How long a case past its context gets to return: caseGrace on its own,
// every wait of a case ending with its context, then unblockWait once its
// sockets are closed under it.
const (
	caseGrace   = time.Second
	unblockWait = 2 * time.Second
)

// wait waits for the case to return. A case whose context ended gets
// caseGrace to return by itself; then its sockets are closed, which ends
// any read, and it gets unblockWait more. A case that returned by neither
// is reported failed and given up: its outcome is frozen and nothing it
// does after is recorded. wait returns with t.mu held and the outcome
// frozen.
func (t *check) wait(done <-chan struct{}) {
	finished := true
	select {
	case <-done:
	case <-t.ctx.Done():
		finished = waitFor(done, caseGrace) || t.unblock(done)
	}
	t.mu.Lock()
	t.judged = true
	if !finished {
		t.outcome, t.detail = Fail, fmt.Sprintf("the case did not finish within %v", t.limit)
	}
}

// unblock closes the case's sockets under it and waits up to unblockWait
// for it to return; it reports whether it did. The case, still running,
// is failed first: a case that overran did not finish in its time,
// whatever it ends with once its sockets are gone.
func (t *check) unblock(done <-chan struct{}) bool {
	t.mu.Lock()
	if !t.judged {
		t.outcome, t.detail = Fail, fmt.Sprintf("the case did not finish within %v", t.limit)
		t.judged = true
	}
	conns := t.conns
	t.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	return waitFor(done, unblockWait)
}

// waitFor reports whether done closes within d.
func waitFor(done <-chan struct{}, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}

// protect runs f in a goroutine of its own and waits for it, so that a
// Failf or Skipf in a cleanup (a send failing on the way out) or a defect
// ends f alone, not the run; a cleanup still running after cleanupWait, a
// Client's quit that never returns, is left behind.
func protect(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = recover() }()
		f()
	}()
	select {
	case <-done:
	case <-time.After(cleanupWait):
	}
}

// cleanupWait bounds a cleanup: a Command's quit takes at most QuitGrace
// and the time a killed process takes to go.
const cleanupWait = QuitGrace + 5*time.Second
