package conformance

// Hostile-peer tests of the suite itself: whatever a server or a client
// under test sends (oversize datagrams, garbage, floods, valid-looking
// packets with absurd values) or does not send, RunServer and RunClient
// must return within a bound computed from the selected cases' limits,
// without a panic of the suite (which the runner would turn into an
// "rtypecheck internal error" detail) and without keeping memory.
//
// The hostile peers and the suite meet on an rtypetest.Network inside a
// testing/synctest bubble, in virtual time: what is tested is the suite's
// bounds, not the system's sockets. A port where nothing listens stays on
// real UDP, whose ICMP errors the suite's sockets read.

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"net"
	"net/netip"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/rtypetest"
)

// hostileTimeout is each case's own time in these runs: short, since
// against a hostile peer most cases fail or skip anyway.
const hostileTimeout = 300 * time.Millisecond

// maxHeapGrowth bounds what a run may leave on the heap, after GC.
const maxHeapGrowth = 64 << 20

// maxUDP is the largest UDP payload over IPv4.
const maxUDP = 65507

// longCases are the server cases that by nature wait for seconds (§4.2's
// 10 s, §13.3's timeout): left out of the full runs to keep them short.
var longCases = regexp.MustCompile(`^(8\.1/5|8\.2/6|8\.3/4|10/6|13/3|13/4)$`)

// hostileKind names one behaviour of the hostile server.
type hostileKind int

const (
	// garbageFlood: a Welcome, then random bytes of random sizes up to
	// 65507, to every datagram and continuously.
	garbageFlood hostileKind = iota
	// absurdFlood: a Welcome, then well-framed packets of the right
	// connection id carrying absurd messages.
	absurdFlood
	// welcomeStorm: Welcomes with random ids to every datagram, Rejected
	// interleaved.
	welcomeStorm
	// silentAfterWelcome: one Welcome per address, then nothing.
	silentAfterWelcome
	// amplifier: every answer of a minimal server (Welcome, Pongs) ten
	// times over, and every datagram echoed ten times.
	amplifier
	// crashes: a minimal server whose socket closes after a few dozen
	// datagrams, as if its process died mid-run.
	crashes
)

func (k hostileKind) String() string {
	return [...]string{"garbage-flood", "absurd-flood", "welcome-storm", "silent-after-welcome", "amplifier", "crashes"}[k]
}

// hostileServer is a socket of an in-memory network played by
// goroutines.
type hostileServer struct {
	kind hostileKind
	conn Conn
	// burst is how many datagrams flood sends each peer at a time, pause
	// its rest between two bursts.
	burst int
	pause time.Duration
	stop  chan struct{}
	wg    sync.WaitGroup

	mu    sync.Mutex
	ids   map[netip.AddrPort]uint32
	peers []netip.AddrPort // the most recent, for the background flood
	sent  atomic.Int64
	got   atomic.Int64
}

const (
	crashAfter    = 20
	maxFloodPeers = 8
	burstSize     = 32
	// floodPause is the rest of a flooding goroutine between two bursts,
	// in virtual time: 200 bursts a second, each of up to 8 datagrams to
	// each of up to 8 peers, far more than a case reads.
	floodPause = 5 * time.Millisecond
)

// hostileNet returns a fresh in-memory network and the options that run
// the suite on it.
func hostileNet(o Options) (*rtypetest.Network, Options) {
	nw := rtypetest.NewNetwork(7)
	o.Network = NetworkOf(nw.Listen)
	return nw, o
}

// inBubble runs f in a testing/synctest bubble, in virtual time, and logs
// the wall time it took.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	wall := time.Now()
	synctest.Test(t, f)
	t.Logf("in %v of wall time", time.Since(wall).Round(time.Millisecond))
}

func startHostileServer(t *testing.T, nw *rtypetest.Network, kind hostileKind) *hostileServer {
	t.Helper()
	return startFlood(t, nw, kind, 8, floodPause)
}

// startFlood starts a hostile server whose flood, of a flooding kind,
// sends burst datagrams to each peer every pause.
func startFlood(t *testing.T, nw *rtypetest.Network, kind hostileKind, burst int, pause time.Duration) *hostileServer {
	t.Helper()
	conn, err := nw.Listen(memServer)
	if err != nil {
		t.Fatal(err)
	}
	s := &hostileServer{kind: kind, conn: conn, burst: burst, pause: pause, stop: make(chan struct{}), ids: map[netip.AddrPort]uint32{}}
	s.wg.Add(1)
	go s.serve()
	if kind == garbageFlood || kind == absurdFlood {
		s.wg.Add(1)
		go s.flood()
	}
	t.Cleanup(s.close)
	return s
}

func (s *hostileServer) addr() string { return memServer.String() }

func (s *hostileServer) close() {
	select {
	case <-s.stop:
		return
	default:
	}
	close(s.stop)
	s.conn.Close()
	s.wg.Wait()
}

func (s *hostileServer) stopped() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// id returns the connection id given to a, and whether a is new.
func (s *hostileServer) id(a netip.AddrPort, rng *rand.Rand) (uint32, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.ids[a]; ok {
		return id, false
	}
	if len(s.ids) > 4096 {
		clear(s.ids)
	}
	id := rng.Uint32() | 1
	s.ids[a] = id
	s.peers = append(s.peers, a)
	if len(s.peers) > maxFloodPeers {
		s.peers = append(s.peers[:0], s.peers[len(s.peers)-maxFloodPeers:]...)
	}
	return id, true
}

func (s *hostileServer) send(b []byte, to netip.AddrPort) {
	if _, err := s.conn.WriteToUDPAddrPort(b, to); err == nil {
		s.sent.Add(1)
	}
}

func (s *hostileServer) serve() {
	defer s.wg.Done()
	rng := rand.New(rand.NewPCG(uint64(s.kind), 1))
	buf := make([]byte, 1<<16)
	out := make([]byte, 0, 1<<16)
	for {
		n, from, err := s.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		s.got.Add(1)
		from = unmap(from)
		in := buf[:n]
		id, isNew := s.id(from, rng)
		switch s.kind {
		case garbageFlood:
			s.send(rtype.AppendWelcome(out[:0], id), from)
			for range burstSize {
				s.send(randomDatagram(rng, out[:0]), from)
			}
		case absurdFlood:
			s.send(rtype.AppendWelcome(out[:0], id), from)
			for range burstSize {
				s.send(absurdPacket(rng, out[:0], id), from)
			}
		case welcomeStorm:
			for range 4 {
				s.send(rtype.AppendWelcome(out[:0], rng.Uint32()|1), from)
				s.send(rtype.AppendRejected(out[:0]), from)
			}
		case silentAfterWelcome:
			if isNew {
				s.send(rtype.AppendWelcome(out[:0], id), from)
			}
		case crashes:
			if s.got.Load() > crashAfter {
				s.conn.Close()
				return
			}
			if reply := minimalReply(out[:0], in, id, rng); reply != nil {
				s.send(reply, from)
			}
		case amplifier:
			reply := minimalReply(out[:0], in, id, rng)
			for range 10 {
				if reply != nil {
					s.send(reply, from)
				}
				s.send(in, from)
			}
		}
	}
}

// flood sends, until the server stops, to the most recent peers.
func (s *hostileServer) flood() {
	defer s.wg.Done()
	rng := rand.New(rand.NewPCG(uint64(s.kind), 2))
	out := make([]byte, 0, 1<<16)
	var peers []netip.AddrPort
	var ids []uint32
	for !s.stopped() {
		s.mu.Lock()
		peers = append(peers[:0], s.peers...)
		ids = ids[:0]
		for _, p := range peers {
			ids = append(ids, s.ids[p])
		}
		s.mu.Unlock()
		if len(peers) == 0 {
			time.Sleep(s.pause)
			continue
		}
		for i, p := range peers {
			for range s.burst {
				if s.kind == garbageFlood {
					s.send(randomDatagram(rng, out[:0]), p)
				} else {
					s.send(absurdPacket(rng, out[:0], ids[i]), p)
				}
			}
		}
		time.Sleep(s.pause)
	}
}

// garbage is random bytes, twice the largest UDP payload: a flood's
// datagrams are slices of it at random offsets, as random to their reader
// as fresh bytes and far cheaper to make, so that the flood's cost is the
// reading, not the drawing.
var garbage = func() []byte {
	rng := rand.New(rand.NewPCG(0x9e3779b9, 1))
	b := make([]byte, 2*maxUDP)
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
	}
	return b
}()

// randomDatagram appends random bytes of a random size up to 65507, mostly
// large, sometimes a handshake-sized or packet-sized one.
func randomDatagram(rng *rand.Rand, b []byte) []byte {
	var n int
	switch rng.IntN(4) {
	case 0:
		n = rng.IntN(32)
	case 1:
		n = rng.IntN(rtype.MaxDatagramSize + 1)
	case 2:
		n = maxUDP - rng.IntN(16)
	default:
		n = rng.IntN(maxUDP + 1)
	}
	off := rng.IntN(len(garbage) - n + 1)
	b = append(b, garbage[off:off+n]...)
	if n >= 6 && rng.IntN(4) == 0 {
		// A valid-looking handshake header in front of the garbage.
		binary.BigEndian.PutUint32(b, rtype.Magic)
		b[4], b[5] = rtype.Version, byte(rng.IntN(5))
	}
	return b
}

var createCounter atomic.Uint32

// absurdPacket appends a well-framed packet of connection id carrying
// absurd messages: Snapshots of 47 states with random ids, CreateEntity of
// ever new ids, DestroyEntity with bad reasons, Pongs of random
// timestamps, unknown types, sometimes past 548 bytes.
func absurdPacket(rng *rand.Rand, b []byte, id uint32) []byte {
	b = binary.BigEndian.AppendUint32(b, id)
	b = binary.BigEndian.AppendUint32(b, rng.Uint32())
	b = binary.BigEndian.AppendUint32(b, rng.Uint32())
	b = binary.BigEndian.AppendUint32(b, rng.Uint32())
	limit := rtype.MaxDatagramSize
	switch rng.IntN(16) {
	case 0:
		limit = maxUDP
	case 1:
		limit = 1500
	}
	for {
		var m rtype.RawMessage
		switch rng.IntN(6) {
		case 0:
			p := binary.BigEndian.AppendUint32(nil, rng.Uint32())
			for range 47 {
				p = binary.BigEndian.AppendUint32(p, rng.Uint32()>>uint(rng.IntN(32)))
				p = append(p, byte(rng.Uint32()))
				p = binary.BigEndian.AppendUint16(p, uint16(rng.Uint32()))
				p = binary.BigEndian.AppendUint16(p, uint16(rng.Uint32()))
				p = binary.BigEndian.AppendUint16(p, uint16(rng.Uint32()))
			}
			m = rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: p}
		case 1, 2:
			p := binary.BigEndian.AppendUint32(nil, rng.Uint32())
			p = binary.BigEndian.AppendUint32(p, createCounter.Add(1))
			arch := uint16(rng.Uint32())
			if rng.IntN(2) == 0 {
				arch = uint16(rtype.ArchetypePlayerBlue) + uint16(rng.IntN(4))
			}
			p = binary.BigEndian.AppendUint16(p, arch)
			p = binary.BigEndian.AppendUint16(p, uint16(rng.Uint32()))
			p = binary.BigEndian.AppendUint16(p, uint16(rng.Uint32()))
			p = binary.BigEndian.AppendUint16(p, uint16(rng.Uint32()))
			m = rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: p}
		case 3:
			p := binary.BigEndian.AppendUint32(nil, rng.Uint32())
			target := rng.Uint32()
			if c := createCounter.Load(); c > 0 && rng.IntN(2) == 0 {
				target = c - uint32(rng.IntN(64))
			}
			p = binary.BigEndian.AppendUint32(p, target)
			p = append(p, byte(rng.Uint32()))
			m = rtype.RawMessage{Type: rtype.TypeDestroyEntity, Payload: p}
		case 4:
			m = rtype.RawMessage{Type: rtype.TypePong, Payload: binary.BigEndian.AppendUint32(nil, rng.Uint32())}
		default:
			p := make([]byte, rng.IntN(64))
			for i := range p {
				p[i] = byte(rng.Uint32())
			}
			m = rtype.RawMessage{Type: rtype.MessageType(rng.Uint32()), Payload: p}
		}
		if len(b)+4+len(m.Payload) > limit {
			break
		}
		b = appendMessage(b, m)
	}
	if rng.IntN(8) == 0 && len(b) > 20 {
		// A size field that lies about what follows.
		binary.BigEndian.PutUint16(b[18:], uint16(rng.Uint32()))
	}
	return b
}

// minimalReply is the answer of a server that does the least: a Welcome to
// a Hello, and to a packet of the connection one packet with a Pong for
// each Ping and a Snapshot of nothing.
func minimalReply(b, in []byte, id uint32, rng *rand.Rand) []byte {
	if typ, _, err := rtype.ParseHandshake(in); err == nil {
		if typ == rtype.HandshakeHello {
			return rtype.AppendWelcome(b, id)
		}
		return nil
	}
	pk, err := rtype.ParsePacket(in)
	if err != nil || pk.Header().ConnectionID != id {
		return nil
	}
	b = binary.BigEndian.AppendUint32(b, id)
	b = binary.BigEndian.AppendUint32(b, rng.Uint32()>>8|1)
	b = binary.BigEndian.AppendUint32(b, pk.Header().Sequence)
	b = binary.BigEndian.AppendUint32(b, ^uint32(0))
	for raw := range pk.Messages() {
		if raw.Type == rtype.TypePing && len(raw.Payload) == 4 && len(b)+8 <= rtype.MaxDatagramSize {
			b = appendMessage(b, rtype.RawMessage{Type: rtype.TypePong, Payload: raw.Payload})
		}
	}
	snap := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32(nil, 1), 0)
	return appendMessage(b, rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: snap})
}

// heapWatch measures the heap before and after a run, after GC, and
// samples its peak while the run goes.
type heapWatch struct {
	before uint64
	peak   atomic.Uint64
	stop   chan struct{}
	done   chan struct{}
}

func watchHeap() *heapWatch {
	h := &heapWatch{before: liveHeap(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > h.peak.Load() {
					h.peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	return h
}

// end returns the growth of the live heap and the peak heap in use.
func (h *heapWatch) end() (growth int64, peak uint64) {
	close(h.stop)
	<-h.done
	return int64(liveHeap()) - int64(h.before), h.peak.Load()
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// runBound is the hard deadline of a run of the selected cases: runCase
// returns at most a second past each case's limit+extra, plus server
// mode's probe (3 s + extra, and its second; client mode has none, which
// leaves slack), plus slack for cleanups and scheduling under a flood.
func runBound(m Mode, o Options, extra time.Duration) (time.Duration, int) {
	n := 0
	d := 3*time.Second + extra + time.Second
	for _, c := range Cases(m) {
		if o.selected(c) {
			n++
			d += o.limit(c) + extra + time.Second
		}
	}
	return d + 5*time.Second, n
}

// runResult is what a bounded run returned.
type runResult struct {
	rep     *Report
	err     error
	panic   any
	elapsed time.Duration
}

// within runs f in a goroutine and fails the test, with the goroutines'
// stacks, if it does not return within bound: the test fails, not hangs.
func within(t *testing.T, bound time.Duration, f func() (*Report, error)) runResult {
	t.Helper()
	done := make(chan runResult, 1)
	start := time.Now()
	go func() {
		var r runResult
		defer func() {
			r.panic = recover()
			r.elapsed = time.Since(start)
			done <- r
		}()
		r.rep, r.err = f()
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("the run panicked: %v", r.panic)
		}
		return r
	case <-time.After(bound):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("the run did not return within its bound %v; goroutines:\n%s", bound, buf)
		return runResult{}
	}
}

// checkReport asserts that every selected case was reported, each pass,
// fail or skip, and that none hit a defect of the suite.
func checkReport(t *testing.T, rep *Report, want int) {
	t.Helper()
	if rep == nil {
		t.Fatal("nil report without an error")
	}
	if len(rep.Results) != want {
		t.Errorf("report has %d results, want %d (every selected case)", len(rep.Results), want)
	}
	count := map[Outcome]int{}
	for _, r := range rep.Results {
		count[r.Outcome]++
		if r.Outcome > NotRun {
			t.Errorf("case %s: outcome %v", r.Case.ID, r.Outcome)
		}
		if strings.Contains(r.Detail, "internal error") {
			t.Errorf("case %s: %s", r.Case.ID, r.Detail)
		}
	}
	t.Logf("%d pass, %d fail, %d not run; the report keeps %d KiB of datagrams",
		count[Pass], count[Fail], count[NotRun], exchangeBytes(rep)>>10)
}

// conclusion is what a run against a hostile peer must conclude: its status
// (without strict), and cases that must have failed, those of them that
// were selected.
type conclusion struct {
	status Status
	fails  []string
}

// check fails t unless rep concludes v.
func (v conclusion) check(t *testing.T, rep *Report) {
	t.Helper()
	if got := rep.Status(false); got != v.status {
		t.Errorf("the run is %v (stopped: %q; failed: %v), want %v", got, rep.Stopped, rep.Counting(false, Fail), v.status)
	}
	for _, r := range rep.Results {
		if slices.Contains(v.fails, r.Case.ID) && r.Outcome != Fail {
			t.Errorf("case %s %v, want it failed: %s", r.Case.ID, r.Outcome, r.Detail)
		}
	}
}

// exchangeBytes is the size of the datagrams a report keeps.
func exchangeBytes(rep *Report) int {
	n := 0
	for _, r := range rep.Results {
		for _, d := range r.Exchange {
			n += len(d.Bytes)
		}
	}
	return n
}

// judge checks a hostile run: it returned, every case of n reported as
// checkReport wants, concluding v, and the heap, the report dropped, as
// checkHeap wants.
func (r *runResult) judge(t *testing.T, n int, v conclusion, heap *heapWatch) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("the run: %v", r.err)
	}
	checkReport(t, r.rep, n)
	v.check(t, r.rep)
	// What the report keeps is measured apart (exchangeBytes): the heap
	// must not keep anything else.
	r.rep = nil
	growth, peak := heap.end()
	checkHeap(t, growth, peak)
}

func checkHeap(t *testing.T, growth int64, peak uint64) {
	t.Helper()
	t.Logf("heap growth after GC %+d KiB, peak in use %d MiB", growth>>10, peak>>20)
	if growth > maxHeapGrowth {
		t.Errorf("heap grew by %d MiB over the run, bound %d MiB", growth>>20, maxHeapGrowth>>20)
	}
}

func TestHostileServers(t *testing.T) {
	// subset is the handshake cases and the cases of the messages the
	// server sends: each reads what the hostile server sends. With -short
	// only the handshake's.
	subset := regexp.MustCompile(`^(4\.|8\.)`)
	if testing.Short() {
		subset = regexp.MustCompile(`^4\.`)
	}
	// Each welcomes, or echoes, a Hello of a bad magic number, which a
	// server must drop (§4.2).
	badHello := []string{"4.2/2"}
	tests := []struct {
		name string
		kind hostileKind
		run  *regexp.Regexp
		// full is the run of every server case but the few seconds-long
		// ones (longCases), not with -short.
		full bool
		want conclusion
	}{
		{name: "garbage-flood", kind: garbageFlood, run: subset, want: conclusion{NonConformant, badHello}},
		{name: "absurd-flood", kind: absurdFlood, run: subset, want: conclusion{NonConformant, badHello}},
		{name: "welcome-storm", kind: welcomeStorm, run: subset, want: conclusion{NonConformant, badHello}},
		{name: "silent-after-welcome", kind: silentAfterWelcome, run: subset, want: conclusion{NonConformant, badHello}},
		// Its players get no ship (§8.2), but as its packets go back to
		// sequence 1, which a client drops (§5.2), 8.2/4 is not run,
		// naming 5.2/1.
		{name: "amplifier", kind: amplifier, run: subset, want: conclusion{NonConformant, badHello}},
		// Dead during the ladder: nothing could be judged.
		{name: "crashes", kind: crashes, run: subset, want: conclusion{status: Undecided}},
		// Every server case against the flood of oversize garbage, the
		// worst of the hostile servers (the most datagrams, the largest):
		// no packet without a message is acknowledged (§5.3).
		{name: "garbage-flood-all-cases", kind: garbageFlood, full: true, want: conclusion{NonConformant, []string{"4.2/2", "5.3/5"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.full {
				t.Skip("every case: not with -short")
			}
			inBubble(t, func(t *testing.T) {
				// Record exercises the recording of hostile datagrams too.
				nw, o := hostileNet(Options{Timeout: hostileTimeout, Run: tc.run, Skip: longCases, Record: true})
				s := startHostileServer(t, nw, tc.kind)
				bound, n := runBound(ServerMode, o, 0)
				heap := watchHeap()
				r := within(t, bound, func() (*Report, error) {
					return RunServer(context.Background(), s.addr(), o)
				})
				s.close()
				t.Logf("%d cases in %v (bound %v); the server got %d datagrams, sent %d",
					n, r.elapsed.Round(time.Millisecond), bound, s.got.Load(), s.sent.Load())
				r.judge(t, n, tc.want, heap)
			})
		})
	}
}

// TestHostileServerLongCases runs the cases that wait for seconds by
// nature against the amplifier, which answers Pings (ten times over), so
// that each case gets past its join and waits its whole time: about a
// minute of virtual time.
func TestHostileServerLongCases(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of virtual time: not with -short")
	}
	inBubble(t, func(t *testing.T) {
		nw, o := hostileNet(Options{Timeout: hostileTimeout, Run: longCases})
		s := startHostileServer(t, nw, amplifier)
		bound, n := runBound(ServerMode, o, 0)
		heap := watchHeap()
		r := within(t, bound, func() (*Report, error) {
			return RunServer(context.Background(), s.addr(), o)
		})
		s.close()
		t.Logf("%d cases in %v (bound %v)", n, r.elapsed.Round(time.Millisecond), bound)
		// No ship ever: the cases are not run for want of it.
		for _, res := range r.rep.Results {
			if res.Outcome != NotRun || !strings.Contains(res.Detail, "needs ship") {
				t.Errorf("case %s %v, want not run for want of a ship: %s", res.Case.ID, res.Outcome, res.Detail)
			}
		}
		r.judge(t, n, conclusion{status: NonConformant}, heap)
	})
}

// TestHostileServerNothing: a port where nothing listens, and one where a
// server reads and never answers, are unreachable within the probe's time.
// The closed port is one of the system's UDP, which answers with ICMP
// errors that the suite's sockets read; the mute server is in memory.
func TestHostileServerNothing(t *testing.T) {
	// unreachable runs the suite against addr with o: ErrUnreachable
	// within the probe's 3 s and its second, then slack.
	unreachable := func(t *testing.T, addr string, o Options) {
		r := within(t, 6*time.Second, func() (*Report, error) {
			return RunServer(context.Background(), addr, o)
		})
		if !errors.Is(r.err, ErrUnreachable) {
			t.Fatalf("RunServer = %v, %v; want ErrUnreachable", r.rep, r.err)
		}
		t.Logf("unreachable after %v", r.elapsed.Round(time.Millisecond))
	}
	t.Run("closed-port", func(t *testing.T) {
		closed, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		deadAddr := closed.LocalAddr().String()
		closed.Close()
		unreachable(t, deadAddr, Options{Timeout: hostileTimeout})
	})
	t.Run("mute", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			nw, o := hostileNet(Options{Timeout: hostileTimeout})
			mute, err := nw.Listen(memServer)
			if err != nil {
				t.Fatal(err)
			}
			defer mute.Close()
			unreachable(t, memServer.String(), o)
		})
	})
}

// hostileClient is a Client played in-process by goroutines: behave runs
// with the client's socket(s), on port 0 of the scripted server's address
// of nw, until stop is closed.
type hostileClient struct {
	nw      *rtypetest.Network
	started atomic.Int64
	running sync.WaitGroup
}

func (hc *hostileClient) client(sockets int, behave func(stop <-chan struct{}, conns []Conn, server netip.AddrPort, rng *rand.Rand)) Client {
	return func(ctx context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		seed := uint64(hc.started.Add(1))
		var conns []Conn
		for range sockets {
			c, err := hc.nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
			if err != nil {
				for _, c := range conns {
					c.Close()
				}
				return nil, nil, err
			}
			conns = append(conns, c)
		}
		stop := make(chan struct{})
		done := make(chan struct{})
		var once sync.Once
		halt := func() { once.Do(func() { close(stop) }) }
		hc.running.Add(1)
		go func() {
			defer hc.running.Done()
			defer close(done)
			defer func() {
				for _, c := range conns {
					c.Close()
				}
			}()
			behave(stop, conns, server, rand.New(rand.NewPCG(seed, 3)))
		}()
		go func() {
			// The client ends with its case's context too.
			select {
			case <-ctx.Done():
				halt()
			case <-done:
			}
		}()
		quit := func() {
			halt()
			<-done
		}
		return quit, done, nil
	}
}

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// helloFlood sends Hellos from every socket, as fast as it can, and
// ignores what comes back.
func helloFlood(stop <-chan struct{}, conns []Conn, server netip.AddrPort, _ *rand.Rand) {
	hello := rtype.AppendHello(nil)
	for !stopped(stop) {
		for _, c := range conns {
			for range 16 {
				_, _ = c.WriteToUDPAddrPort(hello, server)
			}
		}
		time.Sleep(floodPause)
	}
}

// garbageAfterWelcome says Hello until welcomed, then floods garbage of
// every size and packets of its connection with absurd messages.
func garbageAfterWelcome(stop <-chan struct{}, conns []Conn, server netip.AddrPort, rng *rand.Rand) {
	c := conns[0]
	var id atomic.Uint32
	go func() {
		buf := make([]byte, 1<<16)
		for {
			n, _, err := c.ReadFromUDPAddrPort(buf)
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue
			}
			if typ, got, err := rtype.ParseHandshake(buf[:n]); err == nil && typ == rtype.HandshakeWelcome {
				id.Store(got)
			}
		}
	}()
	hello := rtype.AppendHello(nil)
	out := make([]byte, 0, 1<<16)
	for !stopped(stop) {
		if id.Load() == 0 {
			_, _ = c.WriteToUDPAddrPort(hello, server)
			time.Sleep(20 * time.Millisecond)
			continue
		}
		for range 16 {
			if rng.IntN(2) == 0 {
				_, _ = c.WriteToUDPAddrPort(randomDatagram(rng, out[:0]), server)
			} else {
				_, _ = c.WriteToUDPAddrPort(absurdPacket(rng, out[:0], id.Load()), server)
			}
		}
		time.Sleep(floodPause)
	}
}

// clientRunBound is runBound for client mode with clients that say Hello
// at once: the 20 s clientStart allowance is not spent, since each case's
// own time starts with its client's first Hello, so a case takes its
// limit, the second of wait, and its client's quit (prompt here) and
// start.
func clientRunBound(o Options) (time.Duration, int) {
	return runBound(ClientMode, o, 500*time.Millisecond)
}

func TestHostileClients(t *testing.T) {
	t.Run("exits-at-once", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			var started atomic.Int64
			exit := func(context.Context, netip.AddrPort) (func(), <-chan struct{}, error) {
				started.Add(1)
				done := make(chan struct{})
				close(done)
				return func() {}, done, nil
			}
			_, o := hostileNet(Options{Timeout: hostileTimeout})
			r := within(t, 3*time.Second, func() (*Report, error) {
				return RunClient(context.Background(), exit, o)
			})
			if !errors.Is(r.err, ErrUnreachable) {
				t.Fatalf("RunClient = %v, %v; want ErrUnreachable", r.rep, r.err)
			}
			if r.elapsed > time.Second {
				t.Errorf("ErrUnreachable after %v: not quick", r.elapsed)
			}
			t.Logf("unreachable after %v, %d start", r.elapsed.Round(time.Millisecond), started.Load())
		})
	})
	t.Run("start-fails", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			fail := func(context.Context, netip.AddrPort) (func(), <-chan struct{}, error) {
				return nil, nil, errors.New("no such client")
			}
			_, o := hostileNet(Options{Timeout: hostileTimeout})
			r := within(t, 3*time.Second, func() (*Report, error) {
				return RunClient(context.Background(), fail, o)
			})
			if !errors.Is(r.err, ErrUnreachable) {
				t.Fatalf("RunClient = %v, %v; want ErrUnreachable", r.rep, r.err)
			}
		})
	})
	t.Run("quit-never-returns", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			// quit breaks the Client contract; the run still ends, each
			// cleanup bounded by cleanupWait.
			release := make(chan struct{})
			var wg sync.WaitGroup
			defer wg.Wait()
			defer close(release)
			nw, o := hostileNet(Options{Timeout: hostileTimeout, Run: regexp.MustCompile(`^4\.2/1$`)})
			stuck := func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
				conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
				if err != nil {
					return nil, nil, err
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer conn.Close()
					for {
						conn.WriteToUDPAddrPort(rtype.AppendHello(nil), server)
						select {
						case <-release:
							return
						case <-time.After(100 * time.Millisecond):
						}
					}
				}()
				return func() { <-release }, nil, nil
			}
			bound := 2*cleanupWait + 10*time.Second
			r := within(t, bound, func() (*Report, error) { return RunClient(context.Background(), stuck, o) })
			if r.err != nil || len(r.rep.Results) != 1 {
				t.Fatalf("RunClient = %v, %v; want one result", r.rep, r.err)
			}
			// Its Hellos come every 100 ms, not about every second (§4.2).
			if res := r.rep.Results[0]; res.Outcome != Fail || !strings.Contains(res.Detail, "Hello 2 came 100ms after Hello 1") {
				t.Errorf("4.2/1 %v: %s; want it failed for Hellos 100 ms apart", res.Outcome, res.Detail)
			}
		})
	})

	tests := []struct {
		name    string
		sockets int
		behave  func(<-chan struct{}, []Conn, netip.AddrPort, *rand.Rand)
		want    conclusion
	}{
		// Hellos whatever comes back: Rejected too (§4.4).
		{"hello-flood-many-ports", 16, helloFlood, conclusion{NonConformant, []string{"4.4/1"}}},
		// Datagrams of up to 65507 bytes (§2.2).
		{"garbage-after-welcome", 1, garbageAfterWelcome, conclusion{NonConformant, []string{"2.2/1", "4.4/1"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				nw, o := hostileNet(Options{Timeout: hostileTimeout, Record: true})
				hc := &hostileClient{nw: nw}
				if testing.Short() {
					o.Run = regexp.MustCompile(`^5\.`)
				}
				// Every client case otherwise: 44.
				bound, n := clientRunBound(o)
				heap := watchHeap()
				r := within(t, bound, func() (*Report, error) {
					return RunClient(context.Background(), hc.client(tc.sockets, tc.behave), o)
				})
				hc.running.Wait()
				t.Logf("%d cases in %v (bound %v), %d clients started", n, r.elapsed.Round(time.Millisecond), bound, hc.started.Load())
				r.judge(t, n, tc.want, heap)
			})
		})
	}
}

// TestHostileFloodBytesBounded floods 65507-byte datagrams: what the suite
// keeps of them is bounded by bytes, not only by count, in a failed case's
// recorded exchange (maxExchangeBytes) and in the heap.
func TestHostileFloodBytesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a 17 s flood: not with -short")
	}
	inBubble(t, func(t *testing.T) {
		nw, o := hostileNet(Options{Timeout: hostileTimeout, Run: regexp.MustCompile(`^(5\.|7\.|8\.)`), Skip: longCases, Record: true})
		// 128 datagrams at once, about 4 MiB: more than an inbox holds.
		s := startFlood(t, nw, garbageFlood, 128, 50*time.Millisecond)
		bound, n := runBound(ServerMode, o, 0)
		heap := watchHeap()
		overflowedBefore := inboxOverflows.Load()
		r := within(t, bound, func() (*Report, error) {
			return RunServer(context.Background(), s.addr(), o)
		})
		s.close()
		if r.err != nil {
			t.Fatalf("RunServer: %v", r.err)
		}
		// Whether the flood outpaces the case reading it is up to the
		// scheduler, so overflows are logged, not required: the inbox's
		// byte bound is checked alone by TestEndpointInboxBoundedByBytes.
		// What is required is that the flood reached the suite, many
		// inboxes' worth of it.
		var delivered uint64
		s.mu.Lock()
		for p := range s.ids {
			delivered += nw.Stats(memServer, p).Delivered
		}
		s.mu.Unlock()
		overflowed := inboxOverflows.Load() - overflowedBefore
		t.Logf("the suite's sockets got %d datagrams of the flood, %d overflowed their inboxes", delivered, overflowed)
		if delivered < 2*inboxSize {
			t.Errorf("the suite's sockets got %d datagrams of the flood, fewer than %d: no flood", delivered, 2*inboxSize)
		}
		checkReport(t, r.rep, n)
		conclusion{NonConformant, []string{"5.3/5"}}.check(t, r.rep)
		kept := exchangeBytes(r.rep)
		growth, peak := heap.end()
		runtime.KeepAlive(r.rep)
		t.Logf("heap growth after GC with the report %+d MiB, peak in use %d MiB", growth>>20, peak>>20)
		// A report of n cases of at most maxExchange datagrams of at most the
		// 548 bytes a peer may send (§2.2), with slack, and a heap of a few
		// sockets' worth of such datagrams.
		if limit := n * maxExchange * rtype.MaxDatagramSize * 2; kept > limit {
			t.Errorf("the report keeps %d MiB of datagrams for %d cases, more than %d MiB", kept>>20, n, limit>>20)
		}
		if peak > 128<<20 {
			t.Errorf("peak heap in use %d MiB under the flood, more than 128 MiB", peak>>20)
		}
	})
}
