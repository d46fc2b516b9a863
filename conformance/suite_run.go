package conformance

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"
)

// Mode names the side under test.
type Mode string

const (
	// ServerMode tests a server: the suite plays its clients.
	ServerMode Mode = "server"
	// ClientMode tests a client: the suite plays its server.
	ClientMode Mode = "client"
)

// Cases returns the cases of mode, in report order.
func Cases(m Mode) []Case {
	var list []Case
	if m == ServerMode {
		list = serverCases()
	} else {
		list = clientCases()
	}
	return append([]Case(nil), list...)
}

// RunServer runs the selected server cases against the server at target
// (HOST:PORT). It returns ErrUnreachable when no Hello of a first probe
// got an answer, and ErrUsage for a target that does not resolve or a
// selection that matches nothing. A server that answers with no valid
// Welcome is reachable: the §4 cases judge what it sends.
//
// Before the cases it climbs the ladder of capabilities ([Rung]): a case
// that needs one the server lacks is not run, saying which; the cases'
// waits for answers grow with the slowest answer the ladder saw. Between
// cases it checks that the server still answers a Hello from a fresh
// address; once it does not, the cases left are not run, the failures of
// those that ended with it gone are not run too, and Report.Stopped names
// the case the server stopped answering during. A case not run because an
// answer did not come in time while other cases ran beside it is run
// again alone, its detail saying so.
func RunServer(ctx context.Context, target string, o Options) (*Report, error) {
	addr, err := o.resolve(target)
	if err != nil {
		return nil, err
	}
	cases, err := selectCases(ServerMode, &o)
	if err != nil {
		return nil, err
	}
	nw, own := o.network(), o.inMemory()
	s := newSuite(ServerMode)
	s.wire.Watch(addr)
	noWelcome := ""
	heard := &lastHeard{server: addr}
	at := func(t *check) {
		t.srv = serverSide{server: addr, noWelcome: noWelcome, heard: heard}
		t.net, t.ownNet, t.suite = nw, own, s
	}
	r := runCase(ctx, probeServer(welcomeBy), welcomeBy+time.Second, 0, false, at)
	if r.Outcome == Fail && ctx.Err() == nil && !own && listening(addr) != errRefused {
		// Something may listen: a server the machine starves, or one
		// still starting, answers late, not never.
		r = runCase(ctx, probeServer(lateStartWait), lateStartWait+time.Second, 0, false, at)
	}
	if r.Outcome == Fail || ctx.Err() != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %s", ErrUnreachable, r.Detail)
		}
		return nil, fmt.Errorf("%w: %s", ErrUnreachable, silence(r.Detail, addr, own))
	}
	if r.Outcome == NotRun {
		noWelcome = r.Detail
		s.ladder.probed = true
		s.ladder.miss(capWelcome, "the server answered the first Hellos with "+noWelcome+", never a valid Welcome")
	} else {
		runCase(ctx, probeLadder, o.limit(probeLadder), 0, false, at)
	}
	if o.Climbed != nil {
		o.Climbed(s.ladder.report(s.notRun, s.failed))
	}
	rep := &Report{Mode: ServerMode, Target: target}
	sch := &scheduler{ctx: ctx, lanes: serverLanes, add: func(r Result) { rep.add(r, &o) }, stopped: s.stopped}
	sch.run = func(c Case, steady func()) (Result, caseEnd) {
		var ct *check
		r := runCase(ctx, c, s.ladder.paced(o.limit(c)), 0, o.Record, func(t *check) { at(t); t.srv.steady = steady; ct = t })
		return r, caseEnd{ran: s.ran(c.ID), expired: ct.timedOut()}
	}
	sch.alive = func(after Result) stop {
		wait := s.ladder.aliveFor()
		if runCase(ctx, probeAlive, wait+time.Second, 0, false, at).Outcome == Fail && ctx.Err() == nil {
			during := heard.during()
			return stop{why: stoppedWhen(during, after.Case.ID, wait), during: during}
		}
		return stop{}
	}
	rep.Stopped = sch.runAll(cases)
	rep.Ladder = s.ladder.report(s.notRun, s.failed)
	return rep, nil
}

// RunClient runs the selected client cases. start starts a fresh client
// for each case; with a nil start the suite writes its address to
// Options.Log and asks for a client by hand, case after case, skipping
// the cases that need a client it can make quit. It returns
// ErrUnreachable when the first client never sent Hello. Each case's time
// counts from its client's first Hello.
func RunClient(ctx context.Context, start Client, o Options) (*Report, error) {
	cases, err := selectCases(ClientMode, &o)
	if err != nil {
		return nil, err
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	h, err := newHarness(&o, start, log)
	if err != nil {
		return nil, err
	}
	defer h.close()
	waits := 0
	var byHand []string
	for _, c := range cases {
		if start == nil && c.quits {
			byHand = append(byHand, c.ID)
		} else {
			waits++
		}
	}
	if start == nil {
		fmt.Fprintf(log, "rtypecheck: the scripted server listens on %v; %d cases need a client of their own: start yours against it when a case asks, and stop it when the case is done%s\n",
			h.addr(), waits, skippedByHand(byHand))
	}
	cr := &clientRun{ctx: ctx, o: &o, start: start, log: log, waits: waits, suite: newSuite(ClientMode),
		rep: &Report{Mode: ClientMode, Target: h.addr().String()}, cases: cases, results: make([]*Result, len(cases))}
	cr.suite.wire.Watch(h.addr())
	if err := cr.runAll(h); err != nil {
		return nil, err
	}
	return cr.rep, nil
}

// skippedByHand names, for the first prompt, the cases skipped with a
// client started by hand.
func skippedByHand(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return fmt.Sprintf(" (skipped without a command, as they make the client quit: %s)", strings.Join(ids, ", "))
}

func selectCases(m Mode, o *Options) ([]Case, error) {
	var out []Case
	for _, c := range Cases(m) {
		if o.selected(c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: -run and -skip select no %s case", ErrUsage, m)
	}
	return out, nil
}

// resolve turns target into the server's address: on UDP a name is
// resolved and an unspecified address means loopback; on the options'
// own network target is an IP:port literal, taken as it is.
func (o *Options) resolve(target string) (netip.AddrPort, error) {
	if o.inMemory() {
		ap, err := netip.ParseAddrPort(target)
		if err != nil {
			return netip.AddrPort{}, fmt.Errorf("%w: target %q: need IP:PORT on Options.Network: %v", ErrUsage, target, err)
		}
		if ap = unmap(ap); ap.Port() == 0 {
			return netip.AddrPort{}, fmt.Errorf("%w: target %q: need IP:PORT", ErrUsage, target)
		}
		return ap, nil
	}
	a, err := net.ResolveUDPAddr("udp", target)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: target %q: %v", ErrUsage, target, err)
	}
	ap := unmap(a.AddrPort())
	if !ap.Addr().IsValid() || ap.Port() == 0 {
		return netip.AddrPort{}, fmt.Errorf("%w: target %q: need HOST:PORT", ErrUsage, target)
	}
	if ap.Addr().IsUnspecified() {
		ap = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), ap.Port())
	}
	return ap, nil
}

// probeServer checks that the server answers a Hello within wait: it
// passes on a valid Welcome, fails when nothing came, and is not run,
// with what came, when only other answers did.
func probeServer(wait time.Duration) Case {
	return Case{ID: "probe", Title: "the server answers a Hello", run: func(t *check) {
		p := t.newPlayer()
		switch {
		case p.hello(wait):
		case p.odd != "":
			t.Skipf("%s", p.odd)
		default:
			t.Failf("no answer within %v to a Hello sent every %v to %v", wait, helloEvery, t.srv.server)
		}
	}}
}

// lateStartWait is how long the first probe asks again, when its Hellos
// got no answer where no ICMP port unreachable said nothing listens:
// with the first, as long as the slowest liveness probe (paceMax ×
// aliveWait).
const lateStartWait = paceMax*aliveWait - welcomeBy
