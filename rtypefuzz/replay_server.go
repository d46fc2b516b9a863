package rtypefuzz

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
)

// replayer sends a finding's datagrams again, in a new session with a
// server, and tells whether the finding's oracle fires again: the
// replaySide of a server.
type replayer struct {
	o         Options // Network, RSS and MaxRSS
	target    netip.AddrPort
	ended     <-chan error // the implementation's end, nil when unknown
	oracle    Oracle
	conn      uint32        // the recorded session's id, replaced by the new one's
	quietWait time.Duration // how long a replay of no datagram watches
	s         *sess         // the replay's session
}

// Replay sends ds to the implementation at target in a new session and
// reports whether oracle fires: the check of a reproducer, and of each
// candidate while a finding is shrunk. ended, when not nil, tells the
// implementation's end. See ReplayServer.
func Replay(nw conformance.Network, target netip.AddrPort, ended <-chan error, oracle Oracle, conn uint32, ds []Datagram) (bool, error) {
	fired, _, err := ReplayServer(target, ended, oracle, conn, ds, Options{Network: nw})
	return fired, err
}

// ReplayServer is Replay on o.Network, with o.RSS and o.MaxRSS to judge a
// memory finding; it returns also what the replay's session sent and
// received, its opening first, for WritePcap.
//
// Each datagram leaves at its time after the first, as recorded (At),
// never before it; on a machine that keeps up, within a millisecond
// after it, the precision of a reproducer file. The answers are judged
// meanwhile. An amplification's datagrams (answered-unconnected) go from
// a socket that sent no Hello, after a session of another socket showed
// the server answering a Hello; the others' go in a session opened with a
// Hello and a Welcome (§4), their packets given its id in place of conn.
// With no datagram, the session is kept alive with valid packets while the
// implementation's own traffic is watched for QuietWait.
func ReplayServer(target netip.AddrPort, ended <-chan error, oracle Oracle, conn uint32, ds []Datagram, o Options) (fired bool, capture []Datagram, err error) {
	p := &replayer{o: o.withDefaults(), target: target, ended: ended, oracle: oracle, conn: conn, quietWait: QuietWait}
	return p.run(ds)
}

func (p *replayer) run(ds []Datagram) (bool, []Datagram, error) {
	bind := bindFor(p.target, p.o.Network)
	s, err := dial(p.o.Network, bind, p.target, Server)
	if err != nil {
		return false, nil, err
	}
	defer s.leave()
	p.s = s
	var traces []*trace // the witness's first: a tie in time goes to it
	if p.oracle == Amplification {
		// The witness shows the server's address in a capture: that of
		// the Welcome to a Hello (§4.2).
		if w, err := dial(p.o.Network, bind, p.target, Server); err == nil {
			defer w.leave()
			traces = append(traces, w.tr)
			_ = w.open(LiveWait)
		}
	}
	traces = append(traces, s.tr)
	if p.oracle != Amplification {
		err = s.open(LiveWait)
	}
	if err != nil {
		return false, merged(traces...), fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	fired := replayAt(p, ds, p.quietWait)
	return fired, merged(traces...), nil
}

func (p *replayer) send(b []byte) { p.s.send(withConn(b, p.conn, p.s.ctx.Conn)) }

func (p *replayer) quiet() {
	if p.s.welcomed {
		p.s.keepalive()
	}
}

// watch reads the answers, and reports a memory finding as fired.
func (p *replayer) watch(d time.Duration) (fired, ended bool) {
	fired, ended = p.read(d)
	return fired || p.grew(), ended
}

// replayEndGrace is how long a replay for a crash or a hang waits for the
// implementation's end before it probes whether it still answers: a
// process's end is known within it, and a probe of one that ended takes
// seconds.
const replayEndGrace = 100 * time.Millisecond

// settle watches the answers for LiveWait, none after a quiet replay,
// which watched them already. A crash or a hang is then judged by
// probes, which take their own time.
func (p *replayer) settle(quiet bool) bool {
	wait := LiveWait
	switch {
	case quiet:
		wait = 0
	case p.oracle == StoppedAnswering || p.oracle == Exited:
		wait = replayEndGrace
	}
	if fired, _ := p.watch(wait); fired {
		return true
	}
	return (p.oracle == StoppedAnswering || p.oracle == Exited) && p.dead()
}

// read reads the answers for d, or those queued when d is not positive,
// and reports whether the oracle fired, and whether the implementation
// ended.
func (p *replayer) read(d time.Duration) (fired, ended bool) {
	var limit <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		limit = t.C
	}
	for {
		var a Datagram
		var ok bool
		if limit == nil {
			select {
			case a, ok = <-p.s.in:
			default:
				return false, false
			}
		} else {
			select {
			case <-limit:
				return false, false
			case <-p.ended:
				p.ended = nil
				return p.oracle == Exited || p.oracle == StoppedAnswering, true
			case a, ok = <-p.s.in:
			}
		}
		if !ok {
			return false, false
		}
		if p.answered(a) {
			return true, false
		}
	}
}

// answered reports whether answer a fires the oracle.
func (p *replayer) answered(a Datagram) bool {
	p.s.absorb(a)
	switch p.oracle {
	case Amplification:
		return true
	case Oversize, Invalid:
		o, _, _ := p.s.monitor.broken()
		return o == p.oracle
	}
	return false
}

// grew reports, for a memory finding, whether the implementation's
// resident memory is past the bound (§12).
func (p *replayer) grew() bool {
	if p.oracle != MemoryGrew || p.o.RSS == nil {
		return false
	}
	rss, err := p.o.RSS()
	return err == nil && rss > p.o.MaxRSS
}

// dead reports whether the implementation stopped answering or ended.
func (p *replayer) dead() bool {
	pr := &prober{nw: p.o.Network, bind: bindFor(p.target, p.o.Network), target: p.target}
	alive, _ := pr.alive()
	if pr.health != nil {
		pr.health.leave()
	}
	if !alive {
		return true
	}
	select {
	case <-p.ended:
		return true
	default:
		return false
	}
}

// withConn returns b with its connectionId replaced by to when it is from
// (§5.1): a packet of the recorded session, sent in a new one.
func withConn(b []byte, from, to uint32) []byte {
	if from == 0 || len(b) < rtype.PacketHeaderSize || binary.BigEndian.Uint32(b) != from {
		return b
	}
	c := append([]byte(nil), b...)
	binary.BigEndian.PutUint32(c, to)
	return c
}

// freshServer replays against a fresh server from start for each
// candidate of f's shrinking.
func freshServer(o Options, start Start, f *Finding) replayFunc {
	return func(ctx context.Context, ds []Datagram, quiet time.Duration) (bool, []Datagram, error) {
		addr, ended, stop, err := start(ctx)
		if err != nil {
			return false, nil, err
		}
		defer stop()
		p := &replayer{o: o.withDefaults(), target: addr, ended: ended, oracle: f.Oracle, conn: f.Conn, quietWait: quiet}
		return p.run(ds)
	}
}

// exitDetail says how a process ended.
func exitDetail(err error) string {
	if err == nil || errors.Is(err, context.Canceled) {
		return "the implementation ended"
	}
	return "the implementation ended: " + err.Error()
}
