package conformance

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
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
func RunServer(ctx context.Context, target string, o Options) (*Report, error) {
	addr, err := resolve(target)
	if err != nil {
		return nil, err
	}
	cases, err := selectCases(ServerMode, &o)
	if err != nil {
		return nil, err
	}
	r := runCase(ctx, probeServer, 3*time.Second, 0, false, func(t *check) { t.server = addr })
	if r.Outcome == Fail || ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %s", ErrUnreachable, r.Detail)
	}
	noWelcome := ""
	if r.Outcome == Skip {
		noWelcome = r.Detail
	}
	rep := &Report{Mode: ServerMode, Target: target}
	for _, c := range cases {
		r := runCase(ctx, c, o.limit(c), 0, o.Record, func(t *check) { t.server, t.noWelcome = addr, noWelcome })
		rep.add(r, &o)
		if ctx.Err() != nil {
			break
		}
	}
	return rep, nil
}

// RunClient runs the selected client cases. start starts a fresh client
// for each case; with a nil start the suite writes its address to
// Options.Log and waits for a client to connect, case after case.
func RunClient(ctx context.Context, start Client, o Options) (*Report, error) {
	cases, err := selectCases(ClientMode, &o)
	if err != nil {
		return nil, err
	}
	listen := o.Listen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	h, err := newHarness(listen, start, log)
	if err != nil {
		return nil, err
	}
	defer h.close()
	setup := func(t *check) { t.harness = h; h.lend(t) }
	extra := clientStart
	if start == nil {
		extra = handWaitUser
	}
	if r := runCase(ctx, probeClient, 3*time.Second, extra, false, setup); r.Outcome != Pass {
		return nil, fmt.Errorf("%w: %s", ErrUnreachable, r.Detail)
	}
	rep := &Report{Mode: ClientMode, Target: h.addr().String()}
	for _, c := range cases {
		r := runCase(ctx, c, o.limit(c), extra, o.Record, setup)
		rep.add(r, &o)
		if ctx.Err() != nil {
			break
		}
	}
	return rep, nil
}

func selectCases(m Mode, o *Options) ([]Case, error) {
	var out []Case
	for _, c := range Cases(m) {
		if o.selected(c.ID) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: -run and -skip select no %s case", ErrUsage, m)
	}
	return out, nil
}

func resolve(target string) (netip.AddrPort, error) {
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

// probeServer checks that the server answers a Hello at all: it passes
// on a valid Welcome, fails when nothing came, and is skipped, with what
// came, when only other answers did.
var probeServer = Case{ID: "probe", Title: "the server answers a Hello", run: func(t *check) {
	p := t.newPlayer()
	switch {
	case p.hello(welcomeBy):
	case p.odd != "":
		t.Skipf("%s", p.odd)
	default:
		t.Failf("no answer within %v to a Hello every %v from %v", welcomeBy, helloEvery, p.ep.local)
	}
}}

// probeClient checks that a client can be started and sends Hello.
var probeClient = Case{ID: "probe", Title: "the client sends Hello", run: func(t *check) {
	t.startClient()
}}
