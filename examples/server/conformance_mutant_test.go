package main

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// A mutant is a broken server: the example game on a session server whose
// socket rewrites the datagrams on the way in (in, before the session
// reads them) and out (out, before they leave). Standing between the
// socket and the session, a mutant can change a datagram, drop it (nil),
// resize it, write more, forge packets in the server's name (wire.forge)
// or hand a datagram to the session as if another client sent it (route);
// the session still sees each client at its own address. Each mutant
// breaks one rule: the cases of catch must fail, no other MUST case may
// but those of also, related rules that the same break trips; or its break
// never shows on the wire, and the cases of vacuous say so.
type mutant struct {
	name  string
	catch []string
	also  []string
	cfg   func(*gameserver.Config)
	// game, when not nil, is the game played instead of the example's:
	// a server of another design, with the rewrites around it as usual.
	game func() stepper
	// tick is the game's tick interval; 0 means 1/60 s (§10).
	tick    time.Duration
	in, out rewrite
	// route, when not nil, returns the address the session takes a
	// client's datagram to come from.
	route func(w *wire, from netip.AddrPort, b []byte) netip.AddrPort
	// notRunFor, when set, is what every MUST case not run must name: the
	// case its verdict rests on.
	notRunFor string
	// verdict, when not nil, checks the detail of a case of catch that
	// caught the mutant, returning what is wrong with it or "".
	verdict func(r conformance.Result) string
	// pass lists cases that must pass: the break is not theirs to judge.
	pass []string
	// vacuous maps cases that must end vacuous (Result.Vacuous) to what
	// their detail must say: the break never shows on the wire. With no
	// case in catch, the run must then be conformant.
	vacuous map[string]string
	// notRun maps cases that must end not run, not vacuous, to what their
	// detail must say: the break leaves them nothing to judge by.
	notRun map[string]string
}

// stepper is what a mutant's host runs on its session server: the example
// game, or one written for a test.
type stepper interface {
	SessionConfig() session.ServerConfig
	// Step is one tick, run before the session's Tick.
	Step(s *session.Server, now time.Time)
}

// A rewrite changes datagram b, sent from or to a, and returns what goes on
// instead: b itself, changed in place or not, another slice, or nil to
// drop it. It runs with the wire's lock held: in on the host's reader
// goroutine as the datagram arrives, out on its loop as it leaves.
type rewrite func(w *wire, a netip.AddrPort, b []byte) []byte

// atOnce bounds the mutants run at the same time: today all of them, as
// in virtual time the slowest mutant alone sets the bubble's length; the
// bound keeps goroutines in check as mutants are added.
const atOnce = 96

// TestConformanceMutants runs, against each broken server, the MUST cases
// and the cases meant to catch it: those fail, no unrelated MUST case
// does. All mutants run at once in one synctest bubble, each on an
// in-memory network of its own, in virtual time.
//
// It is skipped under the race detector: it checks what the suite
// detects, not how it runs, and TestConformance already runs every case
// under -race; the detector would only add its cost to each of the
// mutants' runs of the suite.
func TestConformanceMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MUST cases against each broken server")
	}
	if raceEnabled {
		t.Skip("checks behaviour, not races; TestConformance runs the suite under -race")
	}
	t.Parallel()
	ms := slices.Concat(wireMutants(), gameMutants(), stepperMutants(), rulesMutants(), rareMutants(), premiseMutants())
	reps := make([]*conformance.Report, len(ms))
	errs := make([]error, len(ms))
	exampletest.InMemory(t, 1, func(t *testing.T, _ *rtypetest.Network) {
		var wg sync.WaitGroup
		sem := make(chan struct{}, atOnce)
		for i, m := range ms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				reps[i], errs[i] = m.run(rtypetest.NewNetwork(uint64(i)))
			}()
		}
		wg.Wait()
	})
	for i, m := range ms {
		t.Run(strings.ReplaceAll(m.judged()[0], "/", "_")+"_"+m.name, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			m.judge(t, reps[i])
		})
	}
}

// run serves m on nw and runs the MUST cases and those of catch against
// it there.
func (m mutant) run(nw *rtypetest.Network) (*conformance.Report, error) {
	addr, stop, err := m.serve(nw)
	if err != nil {
		return nil, err
	}
	o := suiteOn(nw)
	o.Slow = true // a slow case runs when a mutant names it
	o.Run = idsRegexp(append(mustIDs(), m.judged()...))
	rep, err := conformance.RunServer(context.Background(), addr, o)
	return rep, errors.Join(err, stop())
}

// judge fails t unless every case of catch ran and failed, and no other
// case failed but those of also.
func (m mutant) judge(t *testing.T, rep *conformance.Report) {
	t.Helper()
	ran := map[string]bool{}
	for _, r := range rep.Results {
		ran[r.Case.ID] = true
		caught := r.Outcome == conformance.Fail
		switch {
		case slices.Contains(m.catch, r.Case.ID) && caught:
			t.Logf("caught by %s: %s", r.Case.ID, r.Detail)
			if m.verdict != nil {
				if bad := m.verdict(r); bad != "" {
					t.Errorf("case %s caught it, but %s: %s", r.Case.ID, bad, r.Detail)
				}
			}
		case slices.Contains(m.catch, r.Case.ID):
			t.Errorf("case %s did not catch it: %s %s", r.Case.ID, r.Outcome, r.Detail)
		case m.vacuous[r.Case.ID] != "" && (r.Outcome != conformance.NotRun || !r.Vacuous || !strings.Contains(r.Detail, m.vacuous[r.Case.ID])):
			t.Errorf("case %s: %s (vacuous %v) %s, want vacuous, saying %q", r.Case.ID, r.Outcome, r.Vacuous, r.Detail, m.vacuous[r.Case.ID])
		case m.vacuous[r.Case.ID] != "":
			t.Logf("vacuous, %s: %s", r.Case.ID, r.Detail)
		case m.notRun[r.Case.ID] != "" && (r.Outcome != conformance.NotRun || r.Vacuous || !strings.Contains(r.Detail, m.notRun[r.Case.ID])):
			t.Errorf("case %s: %s (vacuous %v) %s, want not run, saying %q", r.Case.ID, r.Outcome, r.Vacuous, r.Detail, m.notRun[r.Case.ID])
		case m.notRun[r.Case.ID] != "":
			t.Logf("not run, %s: %s", r.Case.ID, r.Detail)
		case slices.Contains(m.pass, r.Case.ID) && r.Outcome != conformance.Pass:
			t.Errorf("case %s, which must pass, %s: %s", r.Case.ID, r.Outcome, r.Detail)
		case caught && slices.Contains(m.also, r.Case.ID):
			t.Logf("also caught by %s: %s", r.Case.ID, r.Detail)
		case caught:
			t.Errorf("unrelated MUST case %s failed: %s", r.Case.ID, r.Detail)
		case m.notRunFor != "" && r.Outcome == conformance.NotRun && !r.Vacuous && r.Case.Level == conformance.Must && !strings.Contains(r.Detail, "case "+m.notRunFor):
			t.Errorf("MUST case %s not run without naming case %s: %s", r.Case.ID, m.notRunFor, r.Detail)
		case r.Outcome == conformance.NotRun && m.notRunFor != "":
			t.Logf("not run, %s: %s", r.Case.ID, r.Detail)
		}
	}
	for _, id := range append(m.judged(), m.pass...) {
		if !ran[id] {
			t.Errorf("case %s did not run", id)
		}
	}
	want := conformance.NonConformant
	if len(m.catch) == 0 {
		want = conformance.Conformant
	}
	if got := rep.Status(true); got != want {
		t.Errorf("the run is %v with -strict, want %v", got, want)
	}
	for _, r := range rep.Ladder {
		if r.State == conformance.Missing && m.notRunFor != "" && !strings.Contains(r.Detail, "case "+m.notRunFor) {
			t.Errorf("the ladder misses %s without naming case %s: %s", r.Name, m.notRunFor, r.Detail)
		}
		if r.State == conformance.Missing {
			t.Logf("the ladder misses %s: %s", r.Name, r.Detail)
		}
	}
}

// judged returns the cases m names to catch it, then, sorted, those it
// names to be vacuous or not run.
func (m mutant) judged() []string {
	ids := slices.Clone(m.catch)
	for _, ends := range []map[string]string{m.vacuous, m.notRun} {
		for id := range ends {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids[len(m.catch):])
	return ids
}

// mustIDs returns the ids of the server's MUST cases.
func mustIDs() []string {
	var ids []string
	for _, c := range conformance.Cases(conformance.ServerMode) {
		if c.Level == conformance.Must {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// idsRegexp matches exactly the ids given.
func idsRegexp(ids []string) *regexp.Regexp {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = regexp.QuoteMeta(id)
	}
	return regexp.MustCompile("^(" + strings.Join(q, "|") + ")$")
}

// serve runs m on serverAddr of nw, on a host of one match
// (host.Config.Conns, as the example server's Serve runs it), and returns its address and the
// function that stops it, which returns the host's error. The host's
// socket is a brokenConn: the mutant stands between the network and the
// host.
func (m mutant) serve(nw *rtypetest.Network) (string, func() error, error) {
	conn, err := nw.Listen(serverAddr)
	if err != nil {
		return "", nil, err
	}
	var cfg gameserver.Config
	if m.cfg != nil {
		m.cfg(&cfg)
	}
	var g stepper = gameserver.New(cfg)
	if m.game != nil {
		g = m.game()
	}
	w := newWire(conn)
	match := host.Match{Session: g.SessionConfig(), Tick: func(s *session.Server, now time.Time) {
		g.Step(s, now)
		w.see(s)
	}}
	// No game's end (§8.3): by stop, the suite has left.
	h, err := host.Listen(host.Config{Conns: []session.PacketConn{&brokenConn{m: m, w: w, buf: make([]byte, 1<<16)}},
		New: func(int, netip.AddrPort) host.Match { return match }, Interval: m.tick, ShutdownGrace: session.Off})
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	stop := func() error {
		cancel()
		return <-done
	}
	return serverAddr.String(), stop, nil
}

// runCases runs the suite's cases ids, and the slow ones among them when
// slow, against m on an in-memory network in virtual time, and returns the
// report; the test ends there when the suite could not run.
func (m mutant) runCases(t *testing.T, ids []string, slow bool) *conformance.Report {
	var rep *conformance.Report
	exampletest.InMemory(t, 1, func(t *testing.T, nw *rtypetest.Network) {
		addr, stop, err := m.serve(nw)
		if err != nil {
			t.Fatal(err)
		}
		defer stopped(t, stop)
		o := suiteOn(nw)
		o.Slow = slow
		o.Run = idsRegexp(ids)
		if rep, err = conformance.RunServer(context.Background(), addr, o); err != nil {
			t.Fatal(err)
		}
	})
	if rep == nil {
		t.FailNow()
	}
	return rep
}

// stopped runs the stop of serve, failing t on the host's error.
func stopped(t *testing.T, stop func() error) {
	t.Helper()
	if err := stop(); err != nil {
		t.Errorf("the server: %v", err)
	}
}

// brokenConn is a mutant's socket as the host sees it: the network's, with
// the mutant's rewrites on the way in and out. A socket rather than
// session.Hooks, since a rewrite may resize a datagram or, by route, change
// the address the session takes it to come from, which hooks cannot.
//
// The host reads it on a goroutine of its own and writes it on its loop:
// the wire's lock, held across each rewrite, keeps its state to one at a
// time.
type brokenConn struct {
	m mutant
	w *wire
	// buf takes any UDP datagram, so that an in rewrite sees an oversize
	// one whole; the host reads on one goroutine only.
	buf []byte
}

func (c *brokenConn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	for {
		n, from, err := c.w.conn.ReadFromUDPAddrPort(c.buf)
		if err != nil {
			return 0, from, err
		}
		if d, as, ok := c.receive(unmapped(from), slices.Clone(c.buf[:n])); ok {
			// Cut to b, as a socket does: the session drops it as oversize.
			return copy(b, d), as, nil
		}
	}
}

// receive rewrites b, from from, and returns what the session reads
// instead and the address it reads it from; false drops it.
func (c *brokenConn) receive(from netip.AddrPort, b []byte) ([]byte, netip.AddrPort, bool) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	as := from
	if c.m.route != nil {
		as = c.m.route(c.w, from, b)
	}
	if c.m.in != nil {
		b = c.m.in(c.w, from, b)
	}
	if b == nil {
		return nil, as, false
	}
	c.w.in(from, b)
	c.w.heard[from], c.w.heard[as] = struct{}{}, struct{}{}
	return b, as, true
}

func (c *brokenConn) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	d := slices.Clone(b)
	c.w.learn(to, d) // before out changes it
	if c.m.out != nil {
		d = c.m.out(c.w, to, d)
	}
	if d != nil {
		c.w.out(to, d)
	}
	return len(b), nil
}

func (c *brokenConn) Close() error { return c.w.conn.Close() }

// LocalAddr tells the host its address, as the network's socket does.
func (c *brokenConn) LocalAddr() net.Addr { return c.w.conn.LocalAddr() }

// wire is a mutant's socket and what it knows of each client, learned
// from what goes through it.
type wire struct {
	// mu guards the wire: the host reads and writes its socket on two
	// goroutines.
	mu    sync.Mutex
	conn  conformance.Conn
	peers map[netip.AddrPort]*peer
	// owners maps each connection id ever given to the address it was
	// given to.
	owners map[uint32]netip.AddrPort
	// known holds the ids the session knew at its last tick, heard the
	// addresses read from since (see).
	known map[uint32]bool
	heard map[netip.AddrPort]struct{}
}

// peer is what a wire knows of one client address.
type peer struct {
	id       uint32 // connection id of its last Welcome, 0 before
	welcomes int    // Welcomes sent to it
	// joined, win, last and renum are reset by a Welcome: a new client,
	// perhaps on a port an earlier case used.
	joined bool             // the server sent it a connected packet
	win    *rtype.SeqWindow // §5.2 window of the sequences received
	last   uint32           // sequence of its last packet, once win is set
	renum  seqState         // the renumbering of its packets
	// sent is the highest sequence sent to it, as the client sees it; off
	// the packets forged so far, which shift the server's numbering; heard
	// the highest sequence received.
	sent, off, heard uint32
	// state is free for a mutant to keep what it needs.
	state map[string]uint32
}

func newWire(conn conformance.Conn) *wire {
	return &wire{conn: conn, peers: map[netip.AddrPort]*peer{}, owners: map[uint32]netip.AddrPort{},
		known: map[uint32]bool{}, heard: map[netip.AddrPort]struct{}{}}
}

func (w *wire) peer(a netip.AddrPort) *peer {
	p := w.peers[a]
	if p == nil {
		p = &peer{state: map[string]uint32{}}
		w.peers[a] = p
	}
	return p
}

// open reports whether the session holds an open connection from a: the
// peer's state may be that of a closed one, whose port a new client got.
// It is the session's answer at its last tick (see).
func (w *wire) open(a netip.AddrPort) bool {
	p := w.peer(a)
	return p.id != 0 && w.known[p.id]
}

// see notes, on the host's loop after the game's tick, the connection ids
// s knows (ConnStats: open, or among the last closed), for open: a
// rewrite on the way in runs on the host's reader goroutine, which must
// not touch the session. It asks only about the ids that may have changed,
// not of every peer each tick: those known, those open now (admitted from
// the waiting room) and those of the addresses heard since.
func (w *wire) see(s *session.Server) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for id := range w.known {
		if _, ok := s.ConnStats(id); !ok {
			delete(w.known, id)
		}
	}
	for cs := range s.AllConnStats() {
		w.known[cs.Conn] = true
	}
	for a := range w.heard {
		if id := w.peer(a).id; id != 0 {
			if _, ok := s.ConnStats(id); ok {
				w.known[id] = true
			}
		}
	}
	clear(w.heard)
}

// learn notes a datagram the server sends, as the session wrote it.
func (w *wire) learn(to netip.AddrPort, b []byte) {
	p := w.peer(to)
	if t, id, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeWelcome {
		p.id, p.welcomes, w.owners[id] = id, p.welcomes+1, to
		p.joined, p.win, p.renum = false, nil, seqState{}
		return
	}
	if isPacket(b) {
		p.joined = true
	}
}

// in notes a client's datagram and moves its ack back over the forged
// packets.
func (w *wire) in(from netip.AddrPort, b []byte) {
	if len(b) < rtype.PacketHeaderSize {
		return
	}
	p := w.peer(from)
	p.heard = max(p.heard, binary.BigEndian.Uint32(b[4:]))
	if ack := binary.BigEndian.Uint32(b[8:]); ack > p.off {
		binary.BigEndian.PutUint32(b[8:], ack-p.off)
	}
}

// out sends a server datagram, numbered after the forged packets.
func (w *wire) out(to netip.AddrPort, b []byte) {
	if len(b) >= rtype.PacketHeaderSize {
		p := w.peer(to)
		seq := binary.BigEndian.Uint32(b[4:]) + p.off
		binary.BigEndian.PutUint32(b[4:], seq)
		p.sent = max(p.sent, seq)
	}
	w.send(to, b)
}

// send writes b as it is from the server's socket, beside what the server
// sends.
func (w *wire) send(to netip.AddrPort, b []byte) {
	_, _ = w.conn.WriteToUDPAddrPort(b, to)
}

// forge sends to a packet in the server's name carrying msgs, numbered
// next: the server's own packets are shifted after it.
func (w *wire) forge(to netip.AddrPort, msgs ...rtype.RawMessage) {
	p := w.peer(to)
	p.off++
	p.sent++
	h := rtype.PacketHeader{ConnectionID: p.id, Sequence: p.sent, Ack: p.heard, AckBits: ^uint32(0)}
	b, err := h.AppendBinary(nil)
	if err != nil {
		return
	}
	w.send(to, appendRaw(b, msgs...))
}

// window classifies a packet from a welcomed address as §5.2 does and
// returns the class, its sequence and the highest sequence before it.
func (w *wire) window(from netip.AddrPort, b []byte) (rtype.SeqClass, uint32, uint32, bool) {
	p := w.peer(from)
	if p.id == 0 || !isPacket(b) {
		return 0, 0, 0, false
	}
	if p.win == nil {
		p.win = new(rtype.SeqWindow)
	}
	high, _ := p.win.Ack()
	seq := seqOf(b)
	p.last = seq
	return p.win.Receive(seq), seq, high, true
}

// inPlace is a rewrite from f, which changes b in place and reports
// whether it goes on.
func inPlace(f func(w *wire, a netip.AddrPort, b []byte) bool) rewrite {
	return func(w *wire, a netip.AddrPort, b []byte) []byte {
		if !f(w, a, b) {
			return nil
		}
		return b
	}
}

// bytesOnly is a rewrite from f, which needs to know nothing but b.
func bytesOnly(f func(b []byte) []byte) rewrite {
	return func(_ *wire, _ netip.AddrPort, b []byte) []byte { return f(b) }
}

// both applies f, then g.
func both(f, g rewrite) rewrite {
	return func(w *wire, a netip.AddrPort, b []byte) []byte {
		if b = f(w, a, b); b == nil {
			return nil
		}
		return g(w, a, b)
	}
}

// edit rebuilds the connected packet b with each message replaced by what
// f returns; a handshake datagram or a badly framed one is left as it is.
func edit(b []byte, f func(m rtype.RawMessage, next []byte) []rtype.RawMessage) []byte {
	if len(b) < rtype.PacketHeaderSize {
		return b
	}
	out := slices.Clone(b[:rtype.PacketHeaderSize])
	area := b[rtype.PacketHeaderSize:]
	for len(area) > 0 {
		m, rest, ok := rtype.SplitMessage(area)
		if !ok {
			return b
		}
		out = appendRaw(out, f(m, rest)...)
		area = rest
	}
	return out
}

func appendRaw(b []byte, msgs ...rtype.RawMessage) []byte {
	for _, m := range msgs {
		b = binary.BigEndian.AppendUint16(b, uint16(m.Type))
		b = binary.BigEndian.AppendUint16(b, uint16(len(m.Payload)))
		b = append(b, m.Payload...)
	}
	return b
}

// walk reads the messages of packet b (§5.3): the offsets of the complete
// ones, the bytes left after them when fewer than a header, and the offset
// of a header whose size passes the end (-1 when none).
func walk(b []byte) (offs []int, trailing, over int) {
	over = -1
	if len(b) < 16 || len(b) > 1<<16 {
		return nil, 0, -1
	}
	for i := 16; i < len(b); {
		if len(b)-i < 4 {
			return offs, len(b) - i, -1
		}
		size := int(binary.BigEndian.Uint16(b[i+2:]))
		if i+4+size > len(b) {
			return offs, 0, i
		}
		offs = append(offs, i)
		i += 4 + size
	}
	return offs, 0, -1
}

// msgOffsets returns the offsets of the complete messages of packet b.
func msgOffsets(b []byte) []int {
	offs, _, _ := walk(b)
	return offs
}

// carries returns the first message of type typ in the packet b.
func carries(b []byte, typ rtype.MessageType) ([]byte, bool) {
	if len(b) < rtype.PacketHeaderSize {
		return nil, false
	}
	for m, rest, ok := rtype.SplitMessage(b[rtype.PacketHeaderSize:]); ok; m, rest, ok = rtype.SplitMessage(rest) {
		if m.Type == typ {
			return m.Payload, true
		}
	}
	return nil, false
}

func hasMagic(b []byte) bool { return len(b) >= 4 && binary.BigEndian.Uint32(b) == rtype.Magic }

// isPacket reports whether b may be a connected packet: 16 bytes or more
// and no handshake datagram.
func isPacket(b []byte) bool {
	return len(b) >= 16 && !hasMagic(b)
}

func seqOf(b []byte) uint32 { return binary.BigEndian.Uint32(b[4:]) }

func ackOf(b []byte) (ack, bits uint32) {
	return binary.BigEndian.Uint32(b[8:]), binary.BigEndian.Uint32(b[12:])
}

func unmapped(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
