package main

import (
	"context"
	"encoding/binary"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/rtypetest"
)

// The mutation tests run the client suite against a small client written
// for the purpose with package rtype, which breaks one rule at a time: the
// case meant for the rule must fail, and no other MUST case. Session hooks
// on the example bot could not do it: the bot replaces them with its own,
// and a hook sees datagrams, not the client's state (which Welcome it took,
// which ids it knows).

// defect is the one rule a broken client breaks; none keeps them all.
type defect int

const (
	none             defect = iota
	anySource               // takes a Welcome from any address (§3)
	anySourcePackets        // takes connected packets from any address (§3)
	helloLong               // sends a 7-byte Hello (§4.1)
	anyMagic                // takes a Welcome with any magic and version (§4.1)
	helloOnce               // sends Hello once (§4.2)
	neverGiveUp             // sends Hello for ever (§4.2)
	welcomeLong             // takes a Welcome of 10 bytes or more (§4.3)
	welcomeZero             // takes a Welcome with connectionId 0 (§4.3)
	zeroIDPackets           // sends an extra packet with connectionId 0 after its first packet and every 30 frames after (§4.3)
	rejectedIgnored         // keeps sending Hello after Rejected (§4.4)
	rejectedLong            // stops on a Rejected with extra bytes (§4.4)
	oversize                // puts every message due in one datagram (§2.2)
	accept549               // takes datagrams over 548 bytes (§2.2)
	ackBitsEarly            // sends ackBits all set before any server packet (§5.1)
	ackBitsZero             // sends ackBits 0 always (§5.1)
	seqFrom2                // numbers its packets from 2 (§5.2)
	dupHighest              // processes a repeat of the highest sequence (§5.2)
	dupSeen                 // processes a repeat of an older sequence (§5.2)
	tooOld                  // processes sequences more than 32 below the highest (§5.2)
	noOutOfOrder            // drops every sequence below the highest (§5.2)
	noGap                   // drops a sequence more than 1 above the highest (§5.2)
	truncatedOK             // processes the messages before a truncated header (§5.3)
	overrunOK               // processes the messages before an overrun size (§5.3)
	ackBeforeFraming        // records a sequence before any check of the datagram (§5.1)
	lastOnly                // processes only the last message of a packet (§5.3)
	emptyDropped            // drops packets with no message (§5.3)
	anyConnection           // takes packets with any connectionId (§5.4)
	unknownStops            // stops at a message of an unknown type (§6)
	serverType              // sends a message of type 0x0086 in its first packet and every 30 frames after (§6)
	slowInput               // sends an Input every 4 frames (§7.1)
	idleSkipped             // holds Shoot 8 frames in 16 and sends an Input only on those (§7.1)
	inputsStop              // sends no Input after its first 30 frames (§7.1)
	inputLong               // sends 10-byte Inputs (§7.1)
	inputFrom0              // numbers Inputs from 0 (§7.1)
	reservedBit             // sets action bit 5 every 10 frames (§7.1)
	pingLong                // sends 5-byte Pings (§7.2)
	noDisconnect            // quits without Disconnect (§7.3)
	disconnectLong          // sends a 2-byte Disconnect (§7.3)
	queryEvery              // queries an unknown id at every Snapshot (§7.4)
	queryAgain              // queries an id still unknown again every second (§7.4)
	queryNever              // never queries (§7.4)
	queryZero               // takes a Snapshot listing id 0 and queries it (§7.4, §8.1)
	queryLong               // sends 5-byte QueryEntity messages (§7.4)
	queryKnown              // queries ids it knows (§7.4)
	count48                 // reads at most 47 states of a Snapshot whatever its entityCount (§8.1)
	snapshotLong            // takes a Snapshot with bytes after its states (§8.1)
	snapshotZero            // takes a Snapshot listing id 0, querying the others (§8.1)
	snapshotRepeat          // takes a Snapshot listing an id twice (§8.1)
	createLong              // takes a CreateEntity of 16 bytes or more (§8.2)
	forgetDestroyed         // queries a destroyed id a late Snapshot lists (§8.3)
	bigEverySecond          // sends a 600-byte packet once a second, from its 60th frame (§2.2)
	skipEverySecond         // skips a sequence number once a second, from its 60th frame (§5.2)
)

// Bounds of the purpose-built client's tables, whatever the suite sends.
const (
	fakeTable   = 4096
	fakeQueries = 256
	fakeMemory  = 2 * time.Second
)

// fake is the purpose-built client: one goroutine reads the socket, run
// owns the state.
type fake struct {
	d defect
	// quiet, with any defect, never queries (§7.4 is a SHOULD): the suite
	// then reads what the client took from its acks alone.
	quiet  bool
	conn   conformance.Conn
	server netip.AddrPort

	state    int // fakeConnecting, fakeConnected, fakeClosed
	id       uint32
	started  time.Time
	hello    time.Time
	seq      uint32
	win      rtype.SeqWindow
	frame    uint32
	inputSeq uint32
	nextPing time.Time

	known     map[uint32]bool
	destroyed map[uint32]time.Time
	asked     map[uint32]time.Time
	queries   []uint32
}

const (
	fakeConnecting = iota
	fakeConnected
	fakeClosed
)

type fakeDatagram struct {
	b    []byte
	from netip.AddrPort
}

// fakeClient starts, on nw, one purpose-built client with defect d per
// case, never querying if quiet; quitting cancels its context, which makes it send Disconnect
// reason 1. Its socket is on port 0 of the scripted server's address: an
// in-memory network hands out a port none of the run's clients had, so
// that each case's client is the first address the suite has not seen.
func fakeClient(nw *rtypetest.Network, d defect, quiet bool) conformance.Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
		if err != nil {
			return nil, nil, err
		}
		f := &fake{d: d, quiet: quiet, conn: conn, server: server, known: map[uint32]bool{},
			destroyed: map[uint32]time.Time{}, asked: map[uint32]time.Time{}}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.run(ctx)
		}()
		return func() { cancel(); <-done }, done, nil
	}
}

func (f *fake) run(ctx context.Context) {
	in := make(chan fakeDatagram, 64)
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := f.conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				close(in)
				return
			}
			select {
			case in <- fakeDatagram{append([]byte(nil), buf[:n]...), netip.AddrPortFrom(from.Addr().Unmap(), from.Port())}:
			default:
			}
		}
	}()
	defer func() {
		f.conn.Close()
		for range in {
		}
	}()
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	f.step(time.Now())
	for f.state != fakeClosed {
		select {
		case <-ctx.Done():
			if f.state == fakeConnected && f.d != noDisconnect {
				reason := []byte{byte(rtype.DisconnectClientQuit)}
				if f.d == disconnectLong {
					reason = append(reason, 0)
				}
				f.sendPacket([]rtype.RawMessage{{Type: rtype.TypeDisconnect, Payload: reason}})
			}
			return
		case dg, ok := <-in:
			if !ok {
				return
			}
			f.receive(dg, time.Now())
		case now := <-tick.C:
			f.step(now)
		}
	}
}

// step is one frame: Hellos while connecting (§4.2), the frame's packet
// once connected (§7).
func (f *fake) step(now time.Time) {
	switch f.state {
	case fakeConnecting:
		if f.started.IsZero() {
			f.started = now
		}
		if f.d != neverGiveUp && now.Sub(f.started) >= 10*time.Second {
			f.state = fakeClosed
			return
		}
		if f.hello.IsZero() || (f.d != helloOnce && now.Sub(f.hello) >= time.Second) {
			f.hello = now
			b := rtype.AppendHello(nil)
			if f.d == helloLong {
				b = append(b, 0)
			}
			f.write(b)
		}
	case fakeConnected:
		f.play(now)
	}
}

func (f *fake) play(now time.Time) {
	f.frame++
	var msgs []rtype.RawMessage
	held := f.held()
	if (f.d != slowInput || f.frame%4 == 0) && (f.d != idleSkipped || held != 0) && (f.d != inputsStop || f.frame <= 30) {
		msgs = append(msgs, f.input(held))
	}
	if !now.Before(f.nextPing) {
		f.nextPing = now.Add(time.Second)
		p := binary.BigEndian.AppendUint32(nil, uint32(now.Sub(f.started).Milliseconds()))
		if f.d == pingLong {
			p = append(p, 0)
		}
		msgs = append(msgs, rtype.RawMessage{Type: rtype.TypePing, Payload: p})
	}
	for _, id := range f.queries {
		p := binary.BigEndian.AppendUint32(nil, id)
		if f.d == queryLong {
			p = append(p, 0)
		}
		msgs = append(msgs, rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: p})
	}
	f.queries = f.queries[:0]
	// From the first packet on, so that a case that watches a short while
	// sees the defect however slowly a loaded machine runs the frames.
	if f.d == serverType && f.frame%30 == 1 {
		msgs = append(msgs, rtype.RawMessage{Type: rtype.TypePong, Payload: make([]byte, 4)})
	}
	f.sendPacket(msgs)
	if f.d == bigEverySecond && f.frame%60 == 0 {
		f.seq++
		// An unknown message pads it: nothing else is wrong.
		b := binary.BigEndian.AppendUint16(f.header(), 0x0042)
		b = binary.BigEndian.AppendUint16(b, 600-rtype.PacketHeaderSize-rtype.MessageHeaderSize)
		f.write(append(b, make([]byte, 600-len(b))...))
	}
	if f.d == skipEverySecond && f.frame%60 == 0 {
		f.seq++
	}
	if f.d == zeroIDPackets && f.frame%30 == 1 {
		// The same sequence again, so that only the connectionId is wrong.
		b := f.header()
		binary.BigEndian.PutUint32(b, 0)
		f.write(b)
	}
}

func (f *fake) input(actions rtype.Actions) rtype.RawMessage {
	seq := f.inputSeq + 1
	if f.d == inputFrom0 {
		seq = f.inputSeq
	}
	f.inputSeq++
	if f.d == reservedBit && f.frame%10 == 0 {
		actions |= 0x20
	}
	p := binary.BigEndian.AppendUint32(nil, seq)
	p = binary.BigEndian.AppendUint32(p, f.frame)
	p = append(p, byte(actions))
	if f.d == inputLong {
		p = append(p, 0)
	}
	return rtype.RawMessage{Type: rtype.TypeInput, Payload: p}
}

// held is the fake's controls this frame. The one that sends Inputs only
// when something is held holds Shoot half the time, so that it still
// sends 30 a second.
func (f *fake) held() rtype.Actions {
	if f.d == idleSkipped {
		return rtype.ActionShoot * rtype.Actions(f.frame/8%2)
	}
	return fakeActions(f.frame)
}

// fakeActions is the fake's controls at frame n: Right, then Shoot, then
// nothing held.
func fakeActions(n uint32) rtype.Actions {
	switch n % 90 {
	case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9:
		return rtype.ActionRight
	case 30, 31, 32, 33:
		return rtype.ActionShoot
	}
	return 0
}

// header is the header of the last packet numbered (§5.1).
func (f *fake) header() []byte {
	ack, bits := f.win.Ack()
	switch {
	case f.d == ackBitsZero:
		bits = 0
	case f.d == ackBitsEarly && ack == 0:
		bits = ^uint32(0)
	}
	b := binary.BigEndian.AppendUint32(nil, f.id)
	b = binary.BigEndian.AppendUint32(b, f.seq)
	b = binary.BigEndian.AppendUint32(b, ack)
	return binary.BigEndian.AppendUint32(b, bits)
}

// sendPacket sends msgs in as many packets as they need (§2.2), numbered
// from 1 (§5.2).
func (f *fake) sendPacket(msgs []rtype.RawMessage) {
	next := func() []byte {
		f.seq++
		if f.d == seqFrom2 && f.seq == 1 {
			f.seq = 2
		}
		return f.header()
	}
	b := next()
	for _, m := range msgs {
		if len(b)+rtype.MessageHeaderSize+len(m.Payload) > rtype.MaxDatagramSize && f.d != oversize {
			f.write(b)
			b = next()
		}
		b = binary.BigEndian.AppendUint16(b, uint16(m.Type))
		b = binary.BigEndian.AppendUint16(b, uint16(len(m.Payload)))
		b = append(b, m.Payload...)
	}
	f.write(b)
}

func (f *fake) write(b []byte) { _, _ = f.conn.WriteToUDPAddrPort(b, f.server) }

func (f *fake) receive(dg fakeDatagram, now time.Time) {
	foreign := dg.from != f.server
	switch {
	case foreign && !(f.d == anySource && f.state == fakeConnecting) && !(f.d == anySourcePackets && f.state == fakeConnected):
	case f.state == fakeConnected && f.d == ackBeforeFraming && len(dg.b) >= rtype.PacketHeaderSize:
		// The sequence is recorded before any check of the datagram.
		if f.accept(binary.BigEndian.Uint32(dg.b[4:])) && len(dg.b) <= rtype.MaxDatagramSize {
			f.packet(dg.b, true, now)
		}
	case len(dg.b) > rtype.MaxDatagramSize && f.d != accept549:
	case f.state == fakeConnecting:
		f.handshake(dg.b, now)
	case f.state == fakeConnected:
		f.packet(dg.b, false, now)
	}
}

// handshake applies §4.1, §4.3 and §4.4 before Welcome.
func (f *fake) handshake(b []byte, now time.Time) {
	if len(b) < rtype.HandshakeHeaderSize {
		return
	}
	if (binary.BigEndian.Uint32(b) != rtype.Magic || b[4] != rtype.Version) && f.d != anyMagic {
		return
	}
	switch rtype.HandshakeType(b[5]) {
	case rtype.HandshakeWelcome:
		if len(b) < rtype.WelcomeSize || (len(b) != rtype.WelcomeSize && f.d != welcomeLong) {
			return
		}
		id := binary.BigEndian.Uint32(b[6:])
		if id == 0 && f.d != welcomeZero {
			return
		}
		f.id, f.state, f.nextPing = id, fakeConnected, now
	case rtype.HandshakeRejected:
		if (len(b) == rtype.HandshakeHeaderSize || f.d == rejectedLong) && f.d != rejectedIgnored {
			f.state = fakeClosed
		}
	}
}

// packet applies §5 to a connected packet, then processes its messages;
// accepted says its sequence was already taken into the window.
func (f *fake) packet(b []byte, accepted bool, now time.Time) {
	if len(b) < rtype.PacketHeaderSize {
		return
	}
	if binary.BigEndian.Uint32(b) != f.id && f.d != anyConnection {
		return
	}
	msgs, ok := f.split(b[rtype.PacketHeaderSize:])
	if !ok || (len(msgs) == 0 && f.d == emptyDropped) {
		return
	}
	if !accepted && !f.accept(binary.BigEndian.Uint32(b[4:])) {
		return
	}
	if f.d == lastOnly && len(msgs) > 1 {
		msgs = msgs[len(msgs)-1:]
	}
	for _, m := range msgs {
		switch m.Type {
		case rtype.TypeSnapshot:
			f.snapshot(m.Payload, now)
		case rtype.TypeCreateEntity:
			f.create(m.Payload)
		case rtype.TypeDestroyEntity:
			f.destroy(m.Payload, now)
		case rtype.TypePong:
		default:
			if f.d == unknownStops {
				return
			}
		}
	}
}

// accept classifies seq (§5.2), with the defects of the window.
func (f *fake) accept(seq uint32) bool {
	highest, _ := f.win.Ack()
	switch c := f.win.Classify(seq); {
	case c == rtype.SeqDuplicate && seq == highest && f.d == dupHighest,
		c == rtype.SeqDuplicate && seq != highest && f.d == dupSeen,
		c == rtype.SeqTooOld && f.d == tooOld:
		return true
	case c == rtype.SeqOutOfOrder && f.d == noOutOfOrder,
		c == rtype.SeqNew && f.d == noGap && highest != 0 && seq-highest > 1:
		return false
	}
	return f.win.Receive(seq).Accept()
}

// split frames a message area (§5.3), with the defects of the framing.
func (f *fake) split(area []byte) ([]rtype.RawMessage, bool) {
	var msgs []rtype.RawMessage
	for len(area) > 0 {
		if len(area) < rtype.MessageHeaderSize {
			return msgs, f.d == truncatedOK
		}
		end := rtype.MessageHeaderSize + int(binary.BigEndian.Uint16(area[2:]))
		if end > len(area) {
			return msgs, f.d == overrunOK
		}
		msgs = append(msgs, rtype.RawMessage{Type: rtype.MessageType(binary.BigEndian.Uint16(area)), Payload: area[rtype.MessageHeaderSize:end]})
		area = area[end:]
	}
	return msgs, true
}

// snapshot applies §8.1 and queries the unknown ids (§7.4).
func (f *fake) snapshot(p []byte, now time.Time) {
	if len(p) < rtype.SnapshotHeaderSize {
		return
	}
	n := int(binary.BigEndian.Uint16(p[4:]))
	if n > rtype.MaxSnapshotStates {
		if f.d != count48 {
			return
		}
		n = rtype.MaxSnapshotStates
	}
	want := rtype.SnapshotHeaderSize + rtype.EntityStateSize*n
	if len(p) < want || (len(p) != want && f.d != snapshotLong) {
		return
	}
	ids := make([]uint32, 0, n)
	seen := map[uint32]bool{}
	for i := range n {
		id := binary.BigEndian.Uint32(p[rtype.SnapshotHeaderSize+rtype.EntityStateSize*i:])
		if id == 0 && f.d != snapshotZero && f.d != queryZero {
			return
		}
		if seen[id] && f.d != snapshotRepeat {
			return
		}
		seen[id] = true
		ids = append(ids, id)
	}
	for _, id := range ids {
		f.unknown(id, now)
	}
}

// unknown queries id once if the client never created it (§7.4).
func (f *fake) unknown(id uint32, now time.Time) {
	at, asked := f.asked[id]
	switch {
	case id == 0 && f.d != queryZero,
		f.known[id] && f.d != queryKnown,
		now.Sub(f.destroyed[id]) < fakeMemory && f.d != forgetDestroyed,
		asked && f.d != queryEvery && (f.d != queryAgain || now.Sub(at) < time.Second),
		f.d == queryNever, f.quiet,
		len(f.queries) >= fakeQueries:
		return
	}
	if len(f.asked) < fakeTable {
		f.asked[id] = now
	}
	f.queries = append(f.queries, id)
}

// create applies §8.2.
func (f *fake) create(p []byte) {
	if len(p) < rtype.CreateEntitySize || (len(p) != rtype.CreateEntitySize && f.d != createLong) {
		return
	}
	if id := binary.BigEndian.Uint32(p[4:]); id != 0 && len(f.known) < fakeTable {
		f.known[id] = true
	}
}

// destroy applies §8.3, remembering the id.
func (f *fake) destroy(p []byte, now time.Time) {
	if len(p) != rtype.DestroyEntitySize || p[8] > byte(rtype.DestroyGameEnded) {
		return
	}
	id := binary.BigEndian.Uint32(p[4:])
	delete(f.known, id)
	if len(f.destroyed) < fakeTable {
		f.destroyed[id] = now
	}
}

// mutations pairs each broken client with the cases that must catch it:
// they fail, no other MUST case does, the cases in runs pass, those in
// unjudged are not run.
var mutations = []struct {
	name     string
	d        defect
	quiet    bool
	catches  []string
	runs     []string
	unjudged []string
}{
	{"welcome from any address", anySource, false, []string{"3/1"}, nil, nil},
	{"packets from any address", anySourcePackets, false, []string{"3/2"}, nil, nil},
	{"7-byte Hello", helloLong, false, []string{"4.1/1"}, nil, nil},
	{"Welcome with any magic", anyMagic, false, []string{"4.1/2"}, nil, nil},
	{"Hello sent once", helloOnce, false, []string{"4.2/1"}, nil, nil},
	{"Hello for ever", neverGiveUp, false, []string{"4.2/2"}, nil, nil},
	{"long Welcome taken", welcomeLong, false, []string{"4.3/1"}, nil, nil},
	{"Welcome id 0 taken", welcomeZero, false, []string{"4.3/2"}, nil, nil},
	{"packets with connectionId 0", zeroIDPackets, false, []string{"4.3/3"}, nil, nil},
	{"Rejected ignored", rejectedIgnored, false, []string{"4.4/1"}, nil, nil},
	{"long Rejected taken", rejectedLong, false, []string{"4.4/2"}, nil, nil},
	{"oversize datagrams", oversize, false, []string{"2.2/1"}, nil, nil},
	{"549-byte datagrams taken", accept549, false, []string{"2.2/2"}, nil, nil},
	{"ackBits before any packet", ackBitsEarly, false, []string{"5.1/1"}, nil, nil},
	{"ackBits always 0", ackBitsZero, false, []string{"5.1/2"}, nil, nil},
	{"sequence from 2", seqFrom2, false, []string{"5.2/1"}, nil, nil},
	{"repeat of the highest processed", dupHighest, false, []string{"5.2/2"}, nil, nil},
	{"repeat of an older one processed", dupSeen, false, []string{"5.2/3"}, nil, nil},
	{"too old processed", tooOld, false, []string{"5.2/4"}, nil, nil},
	{"out of order dropped", noOutOfOrder, false, []string{"5.2/5"}, nil, nil},
	{"past a gap dropped", noGap, false, []string{"5.2/6", "5.1/2"}, nil, nil},
	{"truncated header tolerated", truncatedOK, false, []string{"5.3/1"}, nil, nil},
	{"overrun size tolerated", overrunOK, false, []string{"5.3/2"}, nil, nil},
	{"dropped packets acked", ackBeforeFraming, false, []string{"2.2/2", "5.3/1", "5.3/2", "5.4/1"}, nil, nil},
	{"last message only", lastOnly, false, []string{"5.3/3"}, nil, nil},
	{"empty packets dropped", emptyDropped, false, []string{"5.3/4"}, nil, nil},
	{"any connectionId taken", anyConnection, false, []string{"5.4/1"}, nil, nil},
	{"unknown type stops the packet", unknownStops, false, []string{"6/1"}, nil, nil},
	{"server type sent", serverType, false, []string{"6/2"}, nil, nil},
	{"an Input every 4 frames", slowInput, false, []string{"7.1/1"}, nil, nil},
	{"Inputs only when something is held", idleSkipped, false, []string{"7.1/1"}, nil, nil},
	{"Inputs for half a second only", inputsStop, false, []string{"7.1/1"}, nil, nil},
	{"10-byte Input", inputLong, false, []string{"7.1/2"}, nil, nil},
	{"inputSequence from 0", inputFrom0, false, []string{"7.1/3"}, nil, nil},
	{"reserved action bit", reservedBit, false, []string{"7.1/4"}, nil, nil},
	{"5-byte Ping", pingLong, false, []string{"7.2/1"}, nil, nil},
	{"no Disconnect", noDisconnect, false, []string{"7.3/1"}, nil, nil},
	{"2-byte Disconnect", disconnectLong, false, []string{"7.3/2"}, nil, nil},
	{"query at every Snapshot", queryEvery, false, []string{"7.4/1"}, nil, nil},
	{"query again every second", queryAgain, false, []string{"7.4/1"}, nil, nil},
	// A client that never queries: the packet rules its acks show are
	// judged, the others are not run.
	{"never a query", queryNever, false, []string{"7.4/1"}, ackJudged, nil},
	{"never a query, a repeat of the highest processed", dupHighest, true, nil, nil, []string{"5.2/2"}},
	{"never a query, packets with any connectionId taken", anyConnection, true, []string{"5.4/1"}, nil, nil},
	{"never a query, packets from any address", anySourcePackets, true, []string{"3/2"}, nil, nil},
	{"never a query, 549-byte datagrams taken", accept549, true, []string{"2.2/2"}, nil, nil},
	{"never a query, truncated header tolerated", truncatedOK, true, []string{"5.3/1"}, nil, nil},
	{"never a query, overrun size tolerated", overrunOK, true, []string{"5.3/2"}, nil, nil},
	{"never a query, out of order dropped", noOutOfOrder, true, []string{"5.2/5"}, nil, nil},
	{"never a query, empty packets dropped", emptyDropped, true, []string{"5.3/4"}, nil, nil},
	{"id 0 queried", queryZero, false, []string{"7.4/2", "8.1/3"}, nil, nil},
	{"5-byte QueryEntity", queryLong, false, []string{"7.4/3"}, nil, nil},
	{"known ids queried", queryKnown, false, []string{"7.4/4"}, nil, nil},
	{"entityCount 48 read as 47", count48, false, []string{"8.1/1"}, nil, nil},
	{"Snapshot with trailing bytes taken", snapshotLong, false, []string{"8.1/2"}, nil, nil},
	{"Snapshot listing id 0 taken", snapshotZero, false, []string{"8.1/3"}, nil, nil},
	{"Snapshot repeating an id taken", snapshotRepeat, false, []string{"8.1/4"}, nil, nil},
	{"long CreateEntity taken", createLong, false, []string{"8.2/1"}, nil, nil},
	{"destroyed ids forgotten", forgetDestroyed, false, []string{"8.3/1"}, nil, nil},
	// Once a second only: what a case watches for less time misses it,
	// the run's monitor does not.
	{"a 600-byte packet a second", bigEverySecond, false, []string{"2.2/1"}, nil, nil},
	{"a sequence number skipped every second", skipEverySecond, false, []string{"5.2/1"}, nil, nil},
}

// TestConformanceMutations runs, for each broken client, the MUST cases and
// those meant for its defect: those must fail, and no other MUST case. It
// first checks the purpose-built client itself: without a defect it passes
// every case, SHOULD ones included. The runs wait on the network, not the
// processor: they all run at once, whatever -parallel says, then each is
// judged in its subtest. They run in one synctest bubble, each on an
// in-memory network of its own, in virtual time.
func TestConformanceMutations(t *testing.T) {
	t.Parallel()
	var musts []string
	levels := map[string]conformance.Level{}
	for _, c := range conformance.Cases(conformance.ClientMode) {
		levels[c.ID] = c.Level
		if c.Level == conformance.Must {
			musts = append(musts, c.ID)
		}
	}
	reports := make([]*conformance.Report, len(mutations))
	errs := make([]error, len(mutations))
	for _, m := range mutations {
		for _, id := range m.catches {
			if _, ok := levels[id]; !ok {
				t.Fatalf("mutation %q: no case %s", m.name, id)
			}
		}
	}
	var sound *conformance.Report
	var soundErr error
	exampletest.InMemory(t, 1, func(t *testing.T, _ *rtypetest.Network) {
		var wg sync.WaitGroup
		for i, m := range mutations {
			if m.d == neverGiveUp && testing.Short() {
				continue
			}
			run := regexp.MustCompile("^(" + quoteAll(append(musts[:len(musts):len(musts)], m.catches...)) + ")$")
			wg.Add(1)
			go func() {
				defer wg.Done()
				nw := rtypetest.NewNetwork(uint64(i))
				o := conformance.Options{Run: run, Network: conformance.NetworkOf(nw.Listen)}
				reports[i], errs[i] = conformance.RunClient(context.Background(), fakeClient(nw, m.d, m.quiet), o)
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			nw := rtypetest.NewNetwork(uint64(len(mutations)))
			o := conformance.Options{Network: conformance.NetworkOf(nw.Listen)}
			if testing.Short() {
				o.Skip = regexp.MustCompile(`^4\.2/2$`) // 12 s of Hellos
			}
			sound, soundErr = conformance.RunClient(context.Background(), fakeClient(nw, none, false), o)
		}()
		wg.Wait()
	})
	t.Run("no defect", func(t *testing.T) {
		if soundErr != nil {
			t.Fatal(soundErr)
		}
		for _, r := range sound.Results {
			if r.Outcome == conformance.Fail {
				t.Errorf("%s %s %s: %s", r.Case.Level, r.Case.ID, r.Case.Title, r.Detail)
			}
		}
	})
	for i, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			switch {
			case reports[i] == nil && errs[i] == nil:
				t.Skip("12 s of Hellos")
			case errs[i] != nil:
				t.Fatal(errs[i])
			}
			judge(t, reports[i], m.catches)
			outcomes(t, reports[i], m.runs, conformance.Pass)
			outcomes(t, reports[i], m.unjudged, conformance.NotRun)
		})
	}
}

// judge checks that the cases in catches failed and no other MUST case.
func judge(t *testing.T, rep *conformance.Report, catches []string) {
	t.Helper()
	want := map[string]bool{}
	for _, id := range catches {
		want[id] = true
	}
	for _, r := range rep.Results {
		switch {
		case want[r.Case.ID] && r.Outcome != conformance.Fail:
			t.Errorf("case %s did not catch the defect: %s %s", r.Case.ID, r.Outcome, r.Detail)
		case want[r.Case.ID]:
			t.Logf("caught by %s: %s", r.Case.ID, r.Detail)
		case !want[r.Case.ID] && r.Outcome == conformance.Fail && r.Case.Level == conformance.Must:
			t.Errorf("unrelated MUST case %s failed: %s", r.Case.ID, r.Detail)
		}
	}
}

// ackJudged are the packet rules a client that never queries is judged by
// from its acks (§5.1): it must take, or drop, the whole packet.
var ackJudged = []string{"2.2/2", "3/2", "5.2/5", "5.2/6", "5.3/1", "5.3/2", "5.4/1"}

// outcomes checks that each case of ids ended with o.
func outcomes(t *testing.T, rep *conformance.Report, ids []string, o conformance.Outcome) {
	t.Helper()
	for _, id := range ids {
		found := false
		for _, r := range rep.Results {
			if r.Case.ID == id {
				found = true
				if r.Outcome != o {
					t.Errorf("case %s: %s, want %s: %s", id, r.Outcome, o, r.Detail)
				}
			}
		}
		if !found {
			t.Errorf("case %s did not run", id)
		}
	}
}

func quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = regexp.QuoteMeta(id)
	}
	return strings.Join(q, "|")
}
