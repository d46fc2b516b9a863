package rtypefuzz

import (
	"context"
	"errors"
	"time"
)

// Pacing of a run: a burst of datagrams every tick, a valid packet every
// keepEvery so the session lives on, a liveness probe every probeEvery,
// a report every second.
const (
	tick       = 2 * time.Millisecond
	keepEvery  = 16
	probeEvery = 500 * time.Millisecond
	lastKept   = 16
)

// errOver ends a run without a finding: its context ended while a
// session opened or a probe waited.
var errOver = errors.New("rtypefuzz: the run is over")

// role is what a run does differently against a server (serverRole: the
// fuzzer plays clients) and against a client (clientRole: it plays the
// server). The engine decides when and which datagram goes; the role
// holds the sessions, sends in them and judges what comes back. A hook
// returning a finding or an error ends the run.
type role interface {
	// ready makes sure a session can take the next datagram, opening
	// one if it must; false holds the burst.
	ready(ctx context.Context) (*Finding, bool, error)
	// burst is how many datagrams a tick sends, owed what the rate
	// owes since the run began.
	burst(owed int) int
	// session is the session under way, nil between sessions.
	session() *sess
	// valid sends datagram i as the session's valid packet; aside
	// sends it outside the session, if the role has one for it (nil
	// bytes: none sent); send sends a mutation in the session. Each
	// returns what went, for the trace.
	valid(i uint64) (string, []byte)
	aside(i uint64) (string, []byte, bool)
	send(m Mutation) (string, []byte)
	// read judges what the implementation sent since the last tick,
	// and whether it ended.
	read(ctx context.Context) (*Finding, error)
	// probe checks every probeEvery that the implementation lives;
	// atEnd judges the last datagrams once the run's time is up.
	probe(run context.Context) (*Finding, error)
	atEnd() *Finding
	// close ends the sessions left.
	close()
}

// engine is one fuzzing run: its pace, the order of its datagrams (the
// schedule), its counts and trace, behind a role.
type engine struct {
	o     Options
	role  role
	sched *schedule
	start time.Time
	prog  Progress
	// answered counts the answers of the sessions that ended.
	answered int
	pace     pace
}

func newEngine(o Options, t Target) *engine {
	e := &engine{o: o, sched: newSchedule(o.Seed, t), start: time.Now(), pace: pace{client: t == Client}}
	// A mutation's What goes to Options.Trace alone.
	e.sched.mut.quiet = o.Trace == nil
	return e
}

// run sends until a finding, ctx is done or o.Duration passed, and
// reports.
func (e *engine) run(ctx context.Context) (*Report, error) {
	f, err := e.loop(ctx)
	e.role.close()
	if err != nil {
		return nil, err
	}
	return &Report{Progress: e.progress(), Finding: f, Slowed: e.pace.slowed()}, nil
}

// loop sends until a finding or the end of the run.
func (e *engine) loop(ctx context.Context) (*Finding, error) {
	run := ctx
	if e.o.Duration > 0 {
		var cancel context.CancelFunc
		run, cancel = context.WithTimeout(ctx, e.o.Duration)
		defer cancel()
	}
	// The first session opens before the clock starts: a client process
	// takes its time to start.
	if f, _, err := e.role.ready(ctx); f != nil || err != nil {
		return outcome(f, err)
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	probe := time.NewTicker(probeEvery)
	defer probe.Stop()
	report := time.NewTicker(time.Second)
	defer report.Stop()
	began := time.Now()
	for {
		var f *Finding
		var err error
		select {
		case <-run.Done():
			if ctx.Err() != nil {
				return nil, nil
			}
			return e.role.atEnd(), nil
		case <-report.C:
			e.pace.second(e.prog.Sent)
			if e.o.Progress != nil {
				e.o.Progress(e.progress())
			}
		case <-probe.C:
			f, err = e.role.probe(run)
		case <-t.C:
			owed := int(time.Since(began).Seconds()*float64(e.o.Rate)) - e.prog.Sent
			f, err = e.step(ctx, e.role.burst(owed))
		}
		if f != nil || err != nil {
			return outcome(f, err)
		}
	}
}

// outcome is the end of a run on f or err, errOver ending it on none.
func outcome(f *Finding, err error) (*Finding, error) {
	if errors.Is(err, errOver) {
		return nil, nil
	}
	return f, err
}

// step sends one burst and reads what came back.
func (e *engine) step(ctx context.Context, burst int) (*Finding, error) {
	for range burst {
		f, ok, err := e.role.ready(ctx)
		if f != nil || err != nil {
			return f, err
		}
		if !ok {
			break
		}
		e.sendOne()
	}
	return e.role.read(ctx)
}

// sendOne sends datagram number prog.Sent+1 of the run: the session's
// valid packet every keepEvery, else the role's own (a stray one), else
// the schedule's mutation.
func (e *engine) sendOne() {
	i := uint64(e.prog.Sent + 1)
	var what string
	var b []byte
	if i%keepEvery == 0 {
		what, b = e.role.valid(i)
	} else if w, ab, ok := e.role.aside(i); ok {
		what, b = w, ab
	} else {
		what, b = e.role.send(e.sched.next(i, &e.role.session().ctx))
	}
	e.sent(what, b)
}

// sent counts a datagram sent, and shows it to Options.Trace; nil b
// counts one drawn but not sent.
func (e *engine) sent(what string, b []byte) {
	e.prog.Sent++
	if e.o.Trace != nil && b != nil {
		e.o.Trace(e.prog.Sent, what, b)
	}
}

// retire counts the answers of a session that ends.
func (e *engine) retire(s *sess) {
	if s != nil {
		e.answered += s.answers
	}
}

// progress is what the run did so far.
func (e *engine) progress() Progress {
	p := e.prog
	p.Elapsed = time.Since(e.start)
	p.Answers = e.answered
	if s := e.role.session(); s != nil {
		p.Answers += s.answers
	}
	return p
}

// finding makes the finding of oracle o in session s, with the last
// datagrams of the run.
func finding(o Oracle, detail string, s *sess, last []Datagram) *Finding {
	f := &Finding{Oracle: o, Detail: detail, Last: last}
	if s != nil {
		f.Sent, f.Conn, f.Capture = s.sent, s.ctx.Conn, s.tr.capture(s.tr.zero)
	}
	return f
}

// recent keeps the last lastKept datagrams of a run in a ring: an answer
// moves none of the others.
type recent struct {
	ring [lastKept]Datagram
	n    int
}

func (r *recent) add(d Datagram) {
	r.ring[r.n%lastKept] = d
	r.n++
}

// list returns the datagrams kept, oldest first; nil for none.
func (r *recent) list() []Datagram {
	if r.n == 0 {
		return nil
	}
	out := make([]Datagram, 0, min(r.n, lastKept))
	for i := max(r.n-lastKept, 0); i < r.n; i++ {
		out = append(out, r.ring[i%lastKept])
	}
	return out
}
