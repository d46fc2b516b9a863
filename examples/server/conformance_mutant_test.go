//go:build go1.25

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
// but those of also, related rules that the same break trips.
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
}

// stepper is what a mutant's loop runs on its session server: the example
// game, or one written for a test.
type stepper interface {
	SessionConfig() session.ServerConfig
	// Step is one tick, run before the session's Tick.
	Step(s *session.Server, now time.Time)
}

// A rewrite changes datagram b, sent from or to a, and returns what goes on
// instead: b itself, changed in place or not, another slice, or nil to
// drop it. It runs on the server's goroutine, like every use of the wire.
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
	ms := slices.Concat(wireMutants(), gameMutants(), stepperMutants(), rulesMutants())
	reps := make([]*conformance.Report, len(ms))
	errs := make([]error, len(ms))
	inMemory(t, 1, func(t *testing.T, _ *rtypetest.Network) {
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
		t.Run(strings.ReplaceAll(m.catch[0], "/", "_")+"_"+m.name, func(t *testing.T) {
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
	defer stop()
	o := suiteOn(nw)
	o.Slow = true // a slow case runs when a mutant names it
	o.Run = idsRegexp(append(mustIDs(), m.catch...))
	return conformance.RunServer(context.Background(), addr, o)
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
		case caught && slices.Contains(m.also, r.Case.ID):
			t.Logf("also caught by %s: %s", r.Case.ID, r.Detail)
		case caught:
			t.Errorf("unrelated MUST case %s failed: %s", r.Case.ID, r.Detail)
		case m.notRunFor != "" && r.Outcome == conformance.NotRun && r.Case.Level == conformance.Must && !strings.Contains(r.Detail, "case "+m.notRunFor):
			t.Errorf("MUST case %s not run without naming case %s: %s", r.Case.ID, m.notRunFor, r.Detail)
		case r.Outcome == conformance.NotRun && m.notRunFor != "":
			t.Logf("not run, %s: %s", r.Case.ID, r.Detail)
		}
	}
	for _, id := range m.catch {
		if !ran[id] {
			t.Errorf("case %s did not run", id)
		}
	}
	if got := rep.Status(true); got != conformance.NonConformant {
		t.Errorf("the run is %v with -strict, want non-conformant", got)
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

// serve runs m on serverAddr of nw and returns its address and the
// function that stops it. Its loop is a host's tick, datagrams read as they come, less
// the shutdown, with m's rewrites around the session.
func (m mutant) serve(nw *rtypetest.Network) (string, func(), error) {
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
	s := session.NewServer(g.SessionConfig(), func(to netip.AddrPort, b []byte) {
		b = slices.Clone(b)
		w.learn(to, b) // before out changes it
		if m.out != nil {
			b = m.out(w, to, b)
		}
		if b != nil {
			w.out(to, b)
		}
	})
	w.session = s
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan datagram, 256)
	go read(ctx, conn, in)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.loop(ctx, w, g, s, in)
	}()
	stop := func() {
		cancel()
		<-done
		conn.Close()
	}
	return serverAddr.String(), stop, nil
}

// loop feeds the session the datagrams of in, rewritten, and ticks the
// game until ctx is done.
func (m mutant) loop(ctx context.Context, w *wire, g stepper, s *session.Server, in <-chan datagram) {
	every := m.tick
	if every == 0 {
		every = time.Second / 60
	}
	tk := time.NewTicker(every)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case d := <-in:
			from, b := d.from, d.b
			if m.route != nil {
				from = m.route(w, from, b)
			}
			if m.in != nil {
				b = m.in(w, d.from, b)
			}
			if b != nil {
				w.in(d.from, b)
				s.Receive(b, from, time.Now())
			}
		case now := <-tk.C:
			g.Step(s, now)
			s.Tick(now)
		}
	}
}

type datagram struct {
	from netip.AddrPort
	b    []byte
}

// read passes conn's datagrams to in until ctx is done or conn closed.
// Its buffer takes any UDP datagram, so that an oversize one reaches the
// session whole.
func read(ctx context.Context, conn conformance.Conn, in chan<- datagram) {
	buf := make([]byte, 1<<16)
	for {
		n, from, err := conn.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		select {
		case in <- datagram{unmapped(from), slices.Clone(buf[:n])}:
		case <-ctx.Done():
			return
		}
	}
}

// wire is a mutant's socket and what it knows of each client, learned
// from what goes through it.
type wire struct {
	conn conformance.Conn
	// session is the server the wire stands before, to tell a connection
	// still open.
	session *session.Server
	peers   map[netip.AddrPort]*peer
	// owners maps each connection id ever given to the address it was
	// given to.
	owners map[uint32]netip.AddrPort
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
	return &wire{conn: conn, peers: map[netip.AddrPort]*peer{}, owners: map[uint32]netip.AddrPort{}}
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
func (w *wire) open(a netip.AddrPort) bool {
	p := w.peer(a)
	_, ok := w.session.ConnStats(p.id)
	return p.id != 0 && ok
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
