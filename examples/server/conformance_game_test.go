package main

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/session"
)

// A mutant is a broken server: the example game on a session server whose
// datagrams are rewritten on the way in (rx) and out (tx), with room to
// change their size or to answer in the server's name, which session
// hooks cannot. Each breaks one rule; the cases in catch must fail for it,
// and no other MUST case may.
type mutant struct {
	name  string
	catch []string
	cfg   func(*gameserver.Config)
	// tick is the game's tick interval; 0 means 1/60 s (§10).
	tick time.Duration
	rx   func(w *mutantWire, from netip.AddrPort, b []byte) []byte
	tx   func(w *mutantWire, to netip.AddrPort, b []byte) []byte
}

// mutantWire is a mutant's socket and what it knows of each client: its
// connection id, the sequences on both sides, and the packets forged in
// the server's name, which shift the server's numbering by off.
type mutantWire struct {
	conn  *net.UDPConn
	peers map[netip.AddrPort]*peer
}

type peer struct {
	id    uint32
	sent  uint32 // highest sequence sent, as the client sees it
	off   uint32 // packets forged so far
	heard uint32 // highest sequence received
	state map[string]uint32
}

func (w *mutantWire) peer(a netip.AddrPort) *peer {
	p := w.peers[a]
	if p == nil {
		p = &peer{state: map[string]uint32{}}
		w.peers[a] = p
	}
	return p
}

// in notes a client's datagram and moves its ack back over the forged
// packets.
func (w *mutantWire) in(from netip.AddrPort, b []byte) {
	if len(b) < rtype.PacketHeaderSize {
		return
	}
	p := w.peer(from)
	p.heard = max(p.heard, binary.BigEndian.Uint32(b[4:]))
	if ack := binary.BigEndian.Uint32(b[8:]); ack > p.off {
		binary.BigEndian.PutUint32(b[8:], ack-p.off)
	}
}

// out sends a server datagram, numbered after the forged ones.
func (w *mutantWire) out(to netip.AddrPort, b []byte) {
	if len(b) >= rtype.PacketHeaderSize {
		p := w.peer(to)
		p.id = binary.BigEndian.Uint32(b)
		seq := binary.BigEndian.Uint32(b[4:]) + p.off
		binary.BigEndian.PutUint32(b[4:], seq)
		p.sent = max(p.sent, seq)
	}
	_, _ = w.conn.WriteToUDPAddrPort(b, to)
}

// forge sends to a packet in the server's name carrying msgs.
func (w *mutantWire) forge(to netip.AddrPort, msgs ...rtype.RawMessage) {
	p := w.peer(to)
	p.off++
	p.sent++
	h := rtype.PacketHeader{ConnectionID: p.id, Sequence: p.sent, Ack: p.heard, AckBits: ^uint32(0)}
	b, err := h.AppendBinary(nil)
	if err != nil {
		return
	}
	_, _ = w.conn.WriteToUDPAddrPort(appendRaw(b, msgs...), to)
}

func appendRaw(b []byte, msgs ...rtype.RawMessage) []byte {
	for _, m := range msgs {
		b = binary.BigEndian.AppendUint16(b, uint16(m.Type))
		b = binary.BigEndian.AppendUint16(b, uint16(len(m.Payload)))
		b = append(b, m.Payload...)
	}
	return b
}

// edit rebuilds the connected packet b with each message replaced by what
// f returns; a handshake datagram or a badly framed one is left as it is.
func edit(b []byte, f func(m rtype.RawMessage, next []byte) []rtype.RawMessage) []byte {
	if len(b) < rtype.PacketHeaderSize {
		return b
	}
	out := append([]byte(nil), b[:rtype.PacketHeaderSize]...)
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

// each returns an edit that passes every message of type typ through f,
// the others unchanged.
func each(typ rtype.MessageType, f func(p []byte, next []byte) []rtype.RawMessage) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return func(_ *mutantWire, _ netip.AddrPort, b []byte) []byte {
		return edit(b, func(m rtype.RawMessage, next []byte) []rtype.RawMessage {
			if m.Type != typ {
				return []rtype.RawMessage{m}
			}
			return f(m.Payload, next)
		})
	}
}

// Unknown message types (§6), ignored by a receiver: what a message is
// turned into to hide it from the server or from the client.
const (
	hideFromServer rtype.MessageType = 0x0070
	hideFromClient rtype.MessageType = 0x00F0
)

func msg(t rtype.MessageType, p []byte) []rtype.RawMessage {
	return []rtype.RawMessage{{Type: t, Payload: p}}
}

// serveMutant runs m on a loopback port and returns its address and the
// function that stops it.
func serveMutant(m mutant) (string, func(), error) {
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", nil, err
	}
	var cfg gameserver.Config
	if m.cfg != nil {
		m.cfg(&cfg)
	}
	g := gameserver.New(cfg)
	w := &mutantWire{conn: conn, peers: map[netip.AddrPort]*peer{}}
	s := session.NewServer(g.SessionConfig(), func(to netip.AddrPort, b []byte) {
		b = append([]byte(nil), b...)
		if m.tx != nil {
			b = m.tx(w, to, b)
		}
		if b != nil {
			w.out(to, b)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan datagram, 256)
	go read(ctx, conn, in)
	done := make(chan struct{})
	go func() {
		defer close(done)
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
				b := d.b
				if m.rx != nil {
					b = m.rx(w, d.from, b)
				}
				if b != nil {
					w.in(d.from, b)
					s.Receive(b, d.from, time.Now())
				}
			case now := <-tk.C:
				g.Step(s, now)
				s.Tick(now)
			}
		}
	}()
	stop := func() {
		cancel()
		<-done
		conn.Close()
	}
	return conn.LocalAddr().String(), stop, nil
}

type datagram struct {
	from netip.AddrPort
	b    []byte
}

// read passes conn's datagrams to in until ctx is done or conn closed.
func read(ctx context.Context, conn *net.UDPConn, in chan<- datagram) {
	buf := make([]byte, 2048)
	for {
		n, from, err := conn.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		select {
		case in <- datagram{netip.AddrPortFrom(from.Addr().Unmap(), from.Port()), append([]byte(nil), buf[:n]...)}:
		case <-ctx.Done():
			return
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

// atOnce bounds the mutants run at the same time. Their cases mostly
// wait; go test's -parallel, GOMAXPROCS by default, would run two.
const atOnce = 12

// TestConformanceMutants runs, against each broken server, the MUST cases
// and the cases meant to catch it: those fail, no other MUST case does.
func TestConformanceMutants(t *testing.T) {
	t.Parallel()
	ms := mutants()
	reps := make([]*conformance.Report, len(ms))
	errs := make([]error, len(ms))
	var wg sync.WaitGroup
	sem := make(chan struct{}, atOnce)
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			reps[i], errs[i] = runMutant(m)
		}()
	}
	wg.Wait()
	for i, m := range ms {
		t.Run(m.name, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			judgeMutant(t, reps[i], m.catch)
		})
	}
}

func runMutant(m mutant) (*conformance.Report, error) {
	addr, stop, err := serveMutant(m)
	if err != nil {
		return nil, err
	}
	defer stop()
	return conformance.RunServer(context.Background(), addr, conformance.Options{Run: idsRegexp(append(mustIDs(), m.catch...))})
}

func judgeMutant(t *testing.T, rep *conformance.Report, catch []string) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range catch {
		want[id] = true
	}
	for _, r := range rep.Results {
		switch {
		case want[r.Case.ID] && r.Outcome != conformance.Fail:
			t.Errorf("%s was not caught: %s %s", r.Case.ID, r.Outcome, r.Detail)
		case want[r.Case.ID]:
			t.Logf("%s caught it: %s", r.Case.ID, r.Detail)
		case !want[r.Case.ID] && r.Outcome == conformance.Fail && r.Case.Level == conformance.Must:
			t.Errorf("unrelated MUST case %s failed: %s", r.Case.ID, r.Detail)
		}
	}
}

// TestConformanceV1Beyond runs the suite against a server behaving as
// version 1 (§13): gameserver.V1, which keeps the stateless Welcome of a
// repeated Hello (13/2 passes), with the inactivity timeout off too. The
// BEYOND cases of the fixes it lacks fail, and no MUST case does.
func TestConformanceV1Beyond(t *testing.T) {
	t.Parallel()
	addr := serveExample(t, func(c *gameserver.Config) {
		c.Session = gameserver.V1()
		c.Session.InactivityTimeout = -1
	})
	rep, err := conformance.RunServer(context.Background(), addr, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed(false) {
		for _, r := range rep.Results {
			if r.Outcome == conformance.Fail && r.Case.Level == conformance.Must {
				t.Errorf("MUST case %s failed against v1: %s", r.Case.ID, r.Detail)
			}
		}
	}
	lacks := map[string]bool{"13/1": true, "13/3": true, "13/4": true}
	for _, r := range rep.Results {
		if lacks[r.Case.ID] && r.Outcome == conformance.Pass {
			t.Errorf("BEYOND case %s passed against v1, which lacks the fix", r.Case.ID)
		}
		if r.Case.Level == conformance.Beyond {
			t.Logf("%s %s: %s", r.Case.ID, r.Outcome, r.Detail)
		}
	}
}

func clone(p []byte) []byte { return append([]byte(nil), p...) }

// input rewrites the Inputs of a client datagram with f, which sees the
// client's state and the payload, and returns the message to put instead.
func input(f func(pe *peer, p []byte) []rtype.RawMessage) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return func(w *mutantWire, from netip.AddrPort, b []byte) []byte {
		pe := w.peer(from)
		return edit(b, func(m rtype.RawMessage, _ []byte) []rtype.RawMessage {
			if m.Type != rtype.TypeInput || len(m.Payload) != rtype.InputSize {
				return []rtype.RawMessage{m}
			}
			return f(pe, clone(m.Payload))
		})
	}
}

// actions rewrites the actions of every valid Input with f.
func actions(f func(a rtype.Actions) (rtype.Actions, bool)) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return input(func(_ *peer, p []byte) []rtype.RawMessage {
		a, keep := f(rtype.Actions(p[8]))
		if !keep {
			return msg(hideFromServer, p)
		}
		p[8] = byte(a)
		return msg(rtype.TypeInput, p)
	})
}

// renumberInputs gives every Input the next number of its client, so that a
// stale one is taken as new.
func renumberInputs(pe *peer, p []byte) []rtype.RawMessage {
	pe.state["input"]++
	binary.BigEndian.PutUint32(p, pe.state["input"])
	return msg(rtype.TypeInput, p)
}

// unsigned drops an Input not above the last by unsigned comparison.
func unsigned(pe *peer, p []byte) []rtype.RawMessage {
	seq := binary.BigEndian.Uint32(p)
	if pe.state["inputs"] > 0 && seq <= pe.state["last"] {
		return msg(hideFromServer, p)
	}
	pe.state["inputs"]++
	pe.state["last"] = seq
	return msg(rtype.TypeInput, p)
}

// resize turns a payload of 3 or 5 bytes into 4, as a server reading a
// u32 from whatever came would.
func resize(typ rtype.MessageType) func(p, _ []byte) []rtype.RawMessage {
	return func(p, _ []byte) []rtype.RawMessage {
		switch len(p) {
		case 5:
			p = p[:4]
		case 3:
			p = append([]byte{0}, p...)
		}
		return msg(typ, p)
	}
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

// pongAfterDisconnect answers, in the server's name, the Pings of a client
// that sent Disconnect reason 1: a connection not closed at once.
func pongAfterDisconnect(w *mutantWire, from netip.AddrPort, b []byte) []byte {
	pe := w.peer(from)
	if ping, ok := carries(b, rtype.TypePing); ok && pe.state["closed"] == 1 && len(ping) == 4 {
		w.forge(from, rtype.RawMessage{Type: rtype.TypePong, Payload: clone(ping)})
	}
	if d, ok := carries(b, rtype.TypeDisconnect); ok && len(d) == 1 && d[0] == 1 {
		pe.state["closed"] = 1
	}
	return b
}

// answerUnknown answers, in the server's name, a QueryEntity of an id the
// example never gives (it counts from 1) with a CreateEntity of it.
func answerUnknown(w *mutantWire, from netip.AddrPort, b []byte) []byte {
	if q, ok := carries(b, rtype.TypeQueryEntity); ok && len(q) == 4 && binary.BigEndian.Uint32(q) >= 1<<28 {
		c := rtype.CreateEntity{NetworkID: binary.BigEndian.Uint32(q), EntityType: rtype.ArchetypeBullet}
		p, _ := c.AppendBinary(nil)
		w.forge(from, rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: p})
	}
	return b
}

// zeroCloses stops hearing a client once it queried networkId 0.
func zeroCloses(w *mutantWire, from netip.AddrPort, b []byte) []byte {
	pe := w.peer(from)
	if q, ok := carries(b, rtype.TypeQueryEntity); ok && len(q) == 4 && binary.BigEndian.Uint32(q) == 0 {
		pe.state["deaf"] = 1
	}
	if pe.state["deaf"] == 1 {
		return nil
	}
	return b
}

// snapshot rewrites each Snapshot payload with f, on a copy.
func snapshot(f func(q []byte) []byte) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return each(rtype.TypeSnapshot, func(p, _ []byte) []rtype.RawMessage {
		if len(p) < rtype.SnapshotHeaderSize {
			return msg(rtype.TypeSnapshot, p)
		}
		return msg(rtype.TypeSnapshot, f(clone(p)))
	})
}

// alone applies f to a datagram holding one message only, so that what f
// breaks takes no other message with it.
func alone(f func(*mutantWire, netip.AddrPort, []byte) []byte) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return func(w *mutantWire, a netip.AddrPort, b []byte) []byte {
		if len(b) < rtype.PacketHeaderSize {
			return b
		}
		if _, rest, ok := rtype.SplitMessage(b[rtype.PacketHeaderSize:]); !ok || len(rest) > 0 {
			return b
		}
		return f(w, a, b)
	}
}

// both applies f, then g.
func both(f, g func(*mutantWire, netip.AddrPort, []byte) []byte) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return func(w *mutantWire, a netip.AddrPort, b []byte) []byte {
		if b = f(w, a, b); b == nil {
			return nil
		}
		return g(w, a, b)
	}
}

// pad48 fills a Snapshot to 48 states with made-up entities.
func pad48(q []byte) []byte {
	for i := (len(q) - 6) / 11; i < 48; i++ {
		q = binary.BigEndian.AppendUint32(q, 0x7E000000+uint32(i))
		q = append(q, make([]byte, 7)...)
	}
	binary.BigEndian.PutUint16(q[4:], 48)
	return q
}

// oneSnapshotPerTick drops a packet carrying a Snapshot of the tick the
// client got one of already.
func oneSnapshotPerTick(w *mutantWire, to netip.AddrPort, b []byte) []byte {
	p, ok := carries(b, rtype.TypeSnapshot)
	if !ok || len(p) < 4 {
		return b
	}
	pe, tick := w.peer(to), binary.BigEndian.Uint32(p)
	if pe.state["snaps"] > 0 && pe.state["tick"] == tick {
		return nil
	}
	pe.state["snaps"]++
	pe.state["tick"] = tick
	return b
}

// create rewrites each CreateEntity payload of 16 bytes with f, on a copy.
func create(f func(q []byte) []rtype.RawMessage) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return each(rtype.TypeCreateEntity, func(p, _ []byte) []rtype.RawMessage {
		if len(p) != rtype.CreateEntitySize {
			return msg(rtype.TypeCreateEntity, p)
		}
		return f(clone(p))
	})
}

func archetype(q []byte) rtype.Archetype { return rtype.Archetype(binary.BigEndian.Uint16(q[8:])) }

func isShip(a rtype.Archetype) bool {
	switch a {
	case rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed:
		return true
	}
	return false
}

// newcomer hides from each client the CreateEntity of the entities older
// than its Welcome (the world a new player is owed), or, with ships, those
// of the ships newer than its own (a player joining).
func newcomer(ships bool) func(*mutantWire, netip.AddrPort, []byte) []byte {
	var newest uint32
	return func(w *mutantWire, to netip.AddrPort, b []byte) []byte {
		pe := w.peer(to)
		if pe.state["seen"] == 0 {
			pe.state["seen"], pe.state["before"] = 1, newest
		}
		return edit(b, func(m rtype.RawMessage, _ []byte) []rtype.RawMessage {
			if m.Type != rtype.TypeCreateEntity || len(m.Payload) != rtype.CreateEntitySize {
				return []rtype.RawMessage{m}
			}
			id := binary.BigEndian.Uint32(m.Payload[4:])
			newest = max(newest, id)
			old := id <= pe.state["before"]
			switch {
			case !ships && old:
				return msg(hideFromClient, m.Payload)
			case ships && !old && isShip(archetype(m.Payload)):
				if pe.state["own"] == 0 {
					pe.state["own"] = id
				} else if id != pe.state["own"] {
					return msg(hideFromClient, m.Payload)
				}
			}
			return []rtype.RawMessage{m}
		})
	}
}

// shooterOnly sends a missile's CreateEntity only to a client that
// released Shoot in the last 300 ms: the one that fired it.
func shooterOnly() (rx, tx func(*mutantWire, netip.AddrPort, []byte) []byte) {
	fired := map[netip.AddrPort]time.Time{}
	rx = func(w *mutantWire, from netip.AddrPort, b []byte) []byte {
		pe := w.peer(from)
		return edit(b, func(m rtype.RawMessage, _ []byte) []rtype.RawMessage {
			if m.Type == rtype.TypeInput && len(m.Payload) == rtype.InputSize {
				shoot := rtype.Actions(m.Payload[8]).Has(rtype.ActionShoot)
				if pe.state["shoot"] == 1 && !shoot {
					fired[from] = time.Now()
				}
				pe.state["shoot"] = map[bool]uint32{false: 0, true: 1}[shoot]
			}
			return []rtype.RawMessage{m}
		})
	}
	var newest uint32
	tx = func(w *mutantWire, to netip.AddrPort, b []byte) []byte {
		pe := w.peer(to)
		if pe.state["seen"] == 0 {
			pe.state["seen"], pe.state["before"] = 1, newest
		}
		return create(func(q []byte) []rtype.RawMessage {
			id := binary.BigEndian.Uint32(q[4:])
			newest = max(newest, id)
			// The world a newcomer is owed stays: only a missile fired
			// while the client was in is hidden.
			if archetype(q) == rtype.ArchetypeBullet && id > pe.state["before"] && time.Since(fired[to]) > 300*time.Millisecond {
				return msg(hideFromClient, q)
			}
			return msg(rtype.TypeCreateEntity, q)
		})(w, to, b)
	}
	return rx, tx
}

// extraDestroy adds, after each DestroyEntity, a made-up one with payload
// p, when the datagram has room.
func extraDestroy(p []byte) func(*mutantWire, netip.AddrPort, []byte) []byte {
	return func(_ *mutantWire, _ netip.AddrPort, b []byte) []byte {
		out := edit(b, func(m rtype.RawMessage, _ []byte) []rtype.RawMessage {
			if m.Type != rtype.TypeDestroyEntity {
				return []rtype.RawMessage{m}
			}
			return []rtype.RawMessage{m, {Type: rtype.TypeDestroyEntity, Payload: p}}
		})
		if len(out) > rtype.MaxDatagramSize {
			return b
		}
		return out
	}
}

// destroyPayload is a DestroyEntity payload of id and reason, with extra
// bytes.
func destroyPayload(id uint32, reason byte, extra int) []byte {
	b := binary.BigEndian.AppendUint32(make([]byte, 4), id)
	return append(append(b, reason), make([]byte, extra)...)
}

// missileReason0 destroys missiles with reason 0, unknown, not 1 or 2.
func missileReason0() func(*mutantWire, netip.AddrPort, []byte) []byte {
	missiles := map[uint32]bool{}
	return func(_ *mutantWire, _ netip.AddrPort, b []byte) []byte {
		return edit(b, func(m rtype.RawMessage, _ []byte) []rtype.RawMessage {
			p := m.Payload
			switch {
			case m.Type == rtype.TypeCreateEntity && len(p) == rtype.CreateEntitySize && archetype(p) == rtype.ArchetypeBullet:
				missiles[binary.BigEndian.Uint32(p[4:])] = true
			case m.Type == rtype.TypeDestroyEntity && len(p) == rtype.DestroyEntitySize && missiles[binary.BigEndian.Uint32(p[4:])]:
				q := clone(p)
				q[8] = byte(rtype.DestroyUnknown)
				return msg(rtype.TypeDestroyEntity, q)
			}
			return []rtype.RawMessage{m}
		})
	}
}

// noBydos hides the Bydos from the clients: no CreateEntity, no state in
// a Snapshot.
var noBydos = both(create(func(q []byte) []rtype.RawMessage {
	if archetype(q) == rtype.ArchetypeEnemyBidos {
		return msg(hideFromClient, q)
	}
	return msg(rtype.TypeCreateEntity, q)
}), snapshot(func(q []byte) []byte {
	out := clone(q[:6])
	for off := 6; off+11 <= len(q); off += 11 {
		if q[off+4] != byte(rtype.ArchetypeEnemyBidos&0xFF) {
			out = append(out, q[off:off+11]...)
		}
	}
	binary.BigEndian.PutUint16(out[4:], uint16((len(out)-6)/11))
	return out
}))

// mutants returns the broken servers, one rule each.
func mutants() []mutant {
	shootRx, shootTx := shooterOnly()
	return []mutant{
		{name: "Input of 10 bytes read as 9", catch: []string{"7.1/1"}, rx: each(rtype.TypeInput, func(p, _ []byte) []rtype.RawMessage {
			return msg(rtype.TypeInput, p[:min(len(p), 9)])
		})},
		{name: "Input of 8 bytes read on into the next message", catch: []string{"7.1/2"}, rx: each(rtype.TypeInput, func(p, next []byte) []rtype.RawMessage {
			if len(p) == 8 && len(next) > 0 {
				p = append(clone(p), next[0])
			}
			return msg(rtype.TypeInput, p)
		})},
		{name: "stale inputSequence accepted", catch: []string{"7.1/3"}, rx: input(renumberInputs)},
		{name: "inputSequence compared unsigned", catch: []string{"7.1/4"}, rx: input(unsigned)},
		{name: "Pong of another timestamp", catch: []string{"7.2/1"}, tx: each(rtype.TypePong, func(p, _ []byte) []rtype.RawMessage {
			q := clone(p)
			q[len(q)-1] ^= 1
			return msg(rtype.TypePong, q)
		})},
		{name: "Pong of 5 bytes", catch: []string{"7.2/2"}, tx: each(rtype.TypePong, func(p, _ []byte) []rtype.RawMessage {
			return msg(rtype.TypePong, append(clone(p), 0))
		})},
		{name: "Ping of 3 or 5 bytes answered", catch: []string{"7.2/3"}, rx: each(rtype.TypePing, resize(rtype.TypePing))},
		{name: "Pings answered after Disconnect", catch: []string{"7.3/1"}, rx: pongAfterDisconnect},
		{name: "no DestroyEntity reason 3", catch: []string{"7.3/2"}, tx: each(rtype.TypeDestroyEntity, func(p, _ []byte) []rtype.RawMessage {
			if len(p) == 9 && p[8] == byte(rtype.DestroyPlayerDisconnected) {
				return msg(hideFromClient, p)
			}
			return msg(rtype.TypeDestroyEntity, p)
		})},
		{name: "Disconnect of reason 2 or 4 ignored", catch: []string{"7.3/3"}, rx: each(rtype.TypeDisconnect, func(p, _ []byte) []rtype.RawMessage {
			if len(p) == 1 && p[0] != byte(rtype.DisconnectClientQuit) {
				return msg(hideFromServer, p)
			}
			return msg(rtype.TypeDisconnect, p)
		})},
		{name: "Disconnect of any size", catch: []string{"7.3/4"}, rx: each(rtype.TypeDisconnect, func(p, _ []byte) []rtype.RawMessage {
			return msg(rtype.TypeDisconnect, []byte{1})
		})},
		{name: "QueryEntity not answered", catch: []string{"7.4/1"}, rx: each(rtype.TypeQueryEntity, func(p, _ []byte) []rtype.RawMessage {
			return msg(hideFromServer, p)
		})},
		{name: "QueryEntity of an unknown id answered", catch: []string{"7.4/2"}, rx: answerUnknown},
		{name: "QueryEntity of id 0 closes the connection", catch: []string{"7.4/3"}, rx: zeroCloses},
		{name: "QueryEntity of 3 or 5 bytes read", catch: []string{"7.4/4"}, rx: each(rtype.TypeQueryEntity, resize(rtype.TypeQueryEntity))},
		{name: "Snapshot of 48 states", catch: []string{"8.1/1", "8.1/5"}, tx: alone(snapshot(pad48))},
		{name: "Snapshot entityCount one too many", catch: []string{"8.1/2"}, tx: snapshot(func(q []byte) []byte {
			binary.BigEndian.PutUint16(q[4:], binary.BigEndian.Uint16(q[4:])+1)
			return q
		})},
		{name: "Snapshot state of networkId 0", catch: []string{"8.1/3"}, tx: snapshot(func(q []byte) []byte {
			if len(q) >= 17 {
				binary.BigEndian.PutUint32(q[6:], 0)
			}
			return q
		})},
		{name: "Snapshot listing an id twice", catch: []string{"8.1/4"}, tx: snapshot(func(q []byte) []byte {
			if len(q) >= 28 {
				copy(q[17:21], q[6:10])
			}
			return q
		})},
		{name: "one Snapshot a tick", catch: []string{"8.1/5"}, tx: oneSnapshotPerTick},
		{name: "Snapshot entityType not the archetype's", catch: []string{"8.1/6"}, tx: snapshot(func(q []byte) []byte {
			for off := 6; off+11 <= len(q); off += 11 {
				q[off+4] ^= 1
			}
			return q
		})},
		{name: "CreateEntity of 17 bytes", catch: []string{"8.2/1"}, tx: create(func(q []byte) []rtype.RawMessage {
			return msg(rtype.TypeCreateEntity, append(q, 0))
		})},
		{name: "CreateEntity of networkId 0", catch: []string{"8.2/2"}, tx: create(func(q []byte) []rtype.RawMessage {
			binary.BigEndian.PutUint32(q[4:], 0)
			return msg(rtype.TypeCreateEntity, q)
		})},
		{name: "no world for a new player", catch: []string{"8.2/3"}, tx: newcomer(false)},
		{name: "no new ship for the others", catch: []string{"8.2/4"}, tx: newcomer(true)},
		{name: "no missile for the others", catch: []string{"8.2/5"}, rx: shootRx, tx: shootTx},
		{name: "no CreateEntity of Bydos", catch: []string{"8.2/6"}, tx: create(func(q []byte) []rtype.RawMessage {
			if archetype(q) == rtype.ArchetypeEnemyBidos {
				return msg(hideFromClient, q)
			}
			return msg(rtype.TypeCreateEntity, q)
		})},
		{name: "a DestroyEntity of 10 bytes too", catch: []string{"8.3/1"}, tx: extraDestroy(destroyPayload(0x7FFFFF01, 1, 1))},
		{name: "a DestroyEntity of networkId 0 too", catch: []string{"8.3/2"}, tx: extraDestroy(destroyPayload(0, 1, 0))},
		{name: "a DestroyEntity of reason 5 too", catch: []string{"8.3/3"}, tx: extraDestroy(destroyPayload(0x7FFFFF02, 5, 0))},

		// GAME rules, where a rewrite breaks them cheaply.
		{name: "Up wins over Down", catch: []string{"7.1/6"}, rx: actions(func(a rtype.Actions) (rtype.Actions, bool) {
			if a.Has(rtype.ActionUp | rtype.ActionDown) {
				a &^= rtype.ActionDown
			}
			return a, true
		})},
		{name: "Left and Right swapped", catch: []string{"7.1/5"}, rx: actions(func(a rtype.Actions) (rtype.Actions, bool) {
			lr := rtype.ActionLeft | rtype.ActionRight
			if a&lr == rtype.ActionLeft || a&lr == rtype.ActionRight {
				a ^= lr
			}
			return a, true
		})},
		{name: "Inputs of 0x00 ignored", catch: []string{"7.1/8"}, rx: actions(func(a rtype.Actions) (rtype.Actions, bool) { return a, a != 0 })},
		{name: "missile fired on press", catch: []string{"7.1/9"}, rx: actions(func(a rtype.Actions) (rtype.Actions, bool) { return a ^ rtype.ActionShoot, true })},
		{name: "missiles destroyed with reason 0", catch: []string{"8.3/4"}, tx: missileReason0()},
		{name: "missiles of another archetype", catch: []string{"9.3/1"}, tx: both(create(func(q []byte) []rtype.RawMessage {
			if archetype(q) == rtype.ArchetypeBullet {
				binary.BigEndian.PutUint16(q[8:], 0x1234)
			}
			return msg(rtype.TypeCreateEntity, q)
		}), snapshot(func(q []byte) []byte {
			// Snapshots tell the same archetype (§8.1).
			for off := 6; off+11 <= len(q); off += 11 {
				if q[off+4] == byte(rtype.ArchetypeBullet&0xFF) {
					q[off+4] = 0x34
				}
			}
			return q
		}))},
		{name: "no Bydos ever", catch: []string{"10/6"}, tx: noBydos},
		{name: "Snapshots every 2 ticks", catch: []string{"10/1", "10/2"}, cfg: func(c *gameserver.Config) { c.Session.SnapshotInterval = 2 }},
		{name: "40 ticks a second", catch: []string{"10/1", "10/3"}, tick: time.Second / 40},
		{name: "ships spawn at x = 190", catch: []string{"10/4"}, tx: create(func(q []byte) []rtype.RawMessage {
			if isShip(archetype(q)) {
				binary.BigEndian.PutUint16(q[10:], binary.BigEndian.Uint16(q[10:])+160)
			}
			return msg(rtype.TypeCreateEntity, q)
		})},
		{name: "two blue ships", catch: []string{"10/5"}, tx: create(func(q []byte) []rtype.RawMessage {
			if archetype(q) == rtype.ArchetypePlayerPink {
				binary.BigEndian.PutUint16(q[8:], uint16(rtype.ArchetypePlayerBlue))
			}
			return msg(rtype.TypeCreateEntity, q)
		})},
	}
}
