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

// Timing of a client session.
const (
	// giveUpAfter: a client with no Welcome this long after its first
	// Hello may give up (§4.2 says after 10 s; some give up sooner).
	giveUpAfter = 2 * time.Second
	// settleTime is how long a client that acknowledged the fuzzer's
	// last packet is still watched: a crash takes a moment to be seen,
	// and what the client answers goes out with its next frames.
	settleTime = 100 * time.Millisecond
	// stuckAfter is how long a client that sends may acknowledge no new
	// packet before its session counts as stuck: a dozen of its frames,
	// thirty of the fuzzer's valid packets at the default rate.
	stuckAfter = 250 * time.Millisecond
	// stuckFrames is how many datagrams a stuck client sends, once settle
	// began, before it is judged: a client the machine starved may not
	// have read yet what stuck it, and would crash on it later.
	stuckFrames = 3
	// endGrace is how long the datagrams of a client that ended are
	// still read: its Disconnect may come in after its end is known.
	endGrace = 50 * time.Millisecond
	// maxPings bounds the Pongs a valid packet owes (§8.4).
	maxPings = 4
)

// clientSess is one session of the fuzzer, playing the server, with one
// client under test: the socket the client was told to play against, the
// client's end, what the fuzzer knows of the session (Context: the
// entities it created, the sequences, the client's acknowledged) and the
// datagrams it sent.
type clientSess struct {
	*sess
	ended <-chan error // nil once read
	stop  func()
	hello time.Time // the client's first datagram
	heard time.Time // its last datagram, or the Welcome
	// quit is set once the client sent Disconnect, reason 1 (§7.3).
	quit  bool
	pings []uint32 // timestamps of the Pings owed a Pong (§8.4)
	// probe is the sequence of the packet settle sent, probed set
	// once the client acknowledged it (§5.1).
	probe  uint32
	probed bool
	// peerAck is the client's last ack, ackMoved when it last changed
	// or the Welcome went out.
	peerAck  uint32
	ackMoved time.Time
	// settleFrom is how many datagrams the client had sent (answers)
	// when settle began.
	settleFrom int
	last       recent
}

// openClient listens on listen, starts a client against that address and
// waits for its first datagram, which it returns with the session.
func openClient(ctx context.Context, nw conformance.Network, listen netip.AddrPort, start ClientStart) (*clientSess, Datagram, error) {
	s, err := dial(nw, listen, netip.AddrPort{}, Client)
	if err != nil {
		return nil, Datagram{}, fmt.Errorf("%w: cannot listen on %v: %v", ErrUnreachable, listen, err)
	}
	ended, stop, err := start(ctx, reachable(s.local))
	if err != nil {
		s.close()
		return nil, Datagram{}, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	cs := &clientSess{sess: s, ended: ended, stop: stop}
	wait := time.NewTimer(StartWait)
	defer wait.Stop()
	select {
	case d, ok := <-s.in:
		if ok {
			now := time.Now()
			cs.peer, cs.hello, cs.heard, cs.start = d.From, now, now, now
			d.At = 0
			return cs, d, nil
		}
		err = errors.New("its socket closed")
	case e := <-ended:
		cs.ended = nil
		err = fmt.Errorf("the client ended before its first Hello (%s)", endText(e))
	case <-wait.C:
		err = fmt.Errorf("no Hello from the client within %v of its start", StartWait)
	case <-ctx.Done():
		err = ctx.Err()
	}
	cs.end()
	if ctx.Err() != nil {
		return nil, Datagram{}, ctx.Err()
	}
	return nil, Datagram{}, fmt.Errorf("%w: %v", ErrUnreachable, err)
}

// reachable is the address a client is told to play against: the
// socket's, loopback for a socket bound to every address.
func reachable(a netip.AddrPort) netip.AddrPort {
	switch {
	case !a.Addr().IsUnspecified():
		return a
	case a.Addr().Is4():
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), a.Port())
	}
	return netip.AddrPortFrom(netip.IPv6Loopback(), a.Port())
}

// end stops the client and closes the socket.
func (cs *clientSess) end() {
	if cs.stop != nil {
		cs.stop()
		cs.stop = nil
	}
	cs.close()
}

// emit sends b to the client; it learns from it what the client may now
// know: a Welcome's id, the sequence, the entities (§4.3, §5.2, §8).
func (cs *clientSess) emit(b []byte) {
	cs.last.add(cs.send(b))
	cs.learnSent(b)
}

// learnSent follows the session through a datagram sent: the first valid
// Welcome opens it; a packet of its id carrying a sequence ahead of the
// session's moves the session's on (§5.2), or the client, which may have
// recorded it, would find the next valid packets too old; the valid
// CreateEntity and DestroyEntity messages change the entities the valid
// Snapshots list (§8.1 to §8.3).
func (cs *clientSess) learnSent(b []byte) {
	if !cs.welcomed {
		if t, id, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeWelcome {
			cs.welcomed, cs.ctx.Conn, cs.heard, cs.ackMoved = true, id, time.Now(), time.Now()
		}
		return
	}
	if len(b) < rtype.PacketHeaderSize || len(b) > rtype.MaxDatagramSize || binary.BigEndian.Uint32(b) != cs.ctx.Conn {
		return
	}
	if seq := binary.BigEndian.Uint32(b[4:]); rtype.SequenceNewer(seq, cs.ctx.Seq) {
		cs.ctx.Seq = seq
	}
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return
	}
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypeCreateEntity:
			var v rtype.CreateEntity
			if v.UnmarshalBinary(m.Payload) == nil && !contains(cs.ctx.Entities, v.NetworkID) &&
				len(cs.ctx.Entities) < rtype.MaxSnapshotStates {
				cs.ctx.Entities = append(cs.ctx.Entities, v.NetworkID)
			}
		case rtype.TypeDestroyEntity:
			var v rtype.DestroyEntity
			if v.UnmarshalBinary(m.Payload) == nil {
				cs.ctx.Entities = without(cs.ctx.Entities, v.NetworkID)
			}
		case rtype.TypeSnapshot:
			var v rtype.Snapshot
			if v.UnmarshalBinary(m.Payload) == nil && rtype.SequenceNewer(v.ServerTick, cs.ctx.Tick) {
				cs.ctx.Tick = v.ServerTick
			}
		}
	}
}

// without returns ids without id, in a new slice: the mutator may hold
// the old one.
func without(ids []uint32, id uint32) []uint32 {
	out := make([]uint32, 0, len(ids))
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

// keepalive sends the session's next valid packet, as a server's tick
// would (§10): the Pongs owed, the CreateEntity of the player's ship when
// the session has no entity yet, and a Snapshot of the entities, at most
// as many as the datagram holds (§2.2, §8.1). It returns the packet.
func (cs *clientSess) keepalive() []byte {
	h := nextHeader(&cs.ctx)
	b := appendHeader(make([]byte, 0, rtype.MaxDatagramSize), h)
	for _, ts := range cs.pings {
		b, _ = rtype.AppendMessage(b, rtype.Pong{Timestamp: ts})
	}
	cs.pings = cs.pings[:0]
	ids := sessionIDs(&cs.ctx)
	if len(ids) == 0 {
		// The ship of slot 0, at its spawn position (§10).
		ship := rtype.CreateEntity{ServerTick: cs.ctx.Tick, NetworkID: 1, EntityType: rtype.ArchetypePlayerBlue,
			X: rtype.PosFromPixels(150), Y: rtype.PosFromPixels(150)}
		b, _ = rtype.AppendMessage(b, ship)
		ids = []uint32{ship.NetworkID}
	}
	tick := cs.ctx.Tick + 3
	room := (rtype.MaxDatagramSize - len(b) - rtype.MessageHeaderSize - rtype.SnapshotHeaderSize) / rtype.EntityStateSize
	ids = ids[:min(len(ids), rtype.MaxSnapshotStates, room)]
	states := make([]rtype.EntityState, len(ids))
	for i, id := range ids {
		states[i] = rtype.EntityState{NetworkID: id, EntityType: uint8(rtype.ArchetypePlayerBlue & 0xFF),
			X: rtype.PosFromPixels(float64(150 + tick%600)), Y: rtype.PosFromPixels(float64(150 + 100*(i%4)))}
	}
	b, _ = rtype.AppendMessage(b, rtype.Snapshot{ServerTick: tick, States: states})
	cs.emit(b)
	return b
}

// take judges a datagram from the client, and learns from it what a
// server does (§5.1, §7): the sequence to acknowledge, the Pings owed a
// Pong, a Disconnect.
func (cs *clientSess) take(d Datagram) (Oracle, string) {
	if d.From != cs.peer {
		return 0, "" // not the client's (§3)
	}
	cs.heard = time.Now()
	cs.answers++
	cs.last.add(d)
	if o, why, b := cs.monitor.broken(); o != 0 {
		if _, err := rtype.ParsePacket(b); !cs.welcomed && o == Invalid && err == nil {
			why = "a connected packet before any valid Welcome: the client took a datagram it had to ignore for one (§4.3)"
		}
		return o, why
	}
	if _, _, err := rtype.ParseHandshake(d.Bytes); err == nil || !cs.welcomed {
		return 0, "" // a Hello sent before the Welcome arrived
	}
	p, err := rtype.ParsePacket(d.Bytes)
	if err != nil {
		return 0, "" // judge found it valid
	}
	h := p.Header()
	if h.ConnectionID != cs.ctx.Conn {
		return Invalid, fmt.Sprintf("a packet of connection id %08x, not %08x of its Welcome (§4.3): it took another datagram for a Welcome",
			h.ConnectionID, cs.ctx.Conn)
	}
	cs.win.Receive(h.Sequence)
	cs.ctx.Ack, cs.ctx.AckBits = cs.win.Ack()
	cs.follow(h.Ack)
	if cs.probe != 0 && rtype.Acked(cs.probe, h.Ack, h.AckBits) {
		cs.probed = true
	}
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypePing:
			var v rtype.Ping
			if v.UnmarshalBinary(m.Payload) == nil && len(cs.pings) < maxPings {
				cs.pings = append(cs.pings, v.Timestamp)
			}
		case rtype.TypeDisconnect:
			var v rtype.Disconnect
			if v.UnmarshalBinary(m.Payload) == nil && v.Reason == rtype.DisconnectClientQuit {
				cs.quit = true
			}
		}
	}
	return 0, ""
}

// follow takes the client's ack (§5.1), the highest sequence it
// received: when it is ahead of the session's, by the wrapping comparison
// or the plain one (§5.2 allows either), the session's sequence moves to
// it, so that the next valid packet is newer than anything the client
// recorded. ackMoved tells when the client last received a new highest.
func (cs *clientSess) follow(ack uint32) {
	if ack != cs.peerAck {
		cs.peerAck, cs.ackMoved = ack, time.Now()
	}
	if ack > cs.ctx.Seq || rtype.SequenceNewer(ack, cs.ctx.Seq) {
		cs.ctx.Seq = ack
	}
}

// stuck reports whether the client, connected and sending, has received
// no new highest sequence for stuckAfter, while valid packets went to it:
// it took a mutated sequence no later packet passes, and drops every
// packet since. Under the plain comparison of §5.2, a sequence of a few
// below 1 at the session's start is near 2³², and the valid packets that
// follow it soon reach 0xFFFFFFFF. The session can only end.
func (cs *clientSess) stuck() bool {
	return cs.welcomed && time.Since(cs.ackMoved) > stuckAfter && time.Since(cs.heard) < stuckAfter
}

// stall reports StoppedAnswering once the client, connected, sent nothing
// for LiveWait: it owes an Input every frame (§7.1).
func (cs *clientSess) stall() (Oracle, string) {
	if !cs.welcomed || time.Since(cs.heard) <= LiveWait {
		return 0, ""
	}
	return StoppedAnswering, fmt.Sprintf("no datagram from the connected client within %v, when it owes an Input every frame (§7.1)", LiveWait)
}

// endOf judges the client's end, err as its ClientStart gave it, once
// the datagrams it sent before it are read: the end of a player who quit,
// or of a client that gave up waiting for a Welcome, is no finding (but
// for what its last datagrams were); any other is (see FuzzClient).
func (cs *clientSess) endOf(err error) (Oracle, string) {
	o, why := cs.drain(endGrace)
	switch {
	case err == nil && cs.quit:
		return o, why // §7.3
	case !cs.welcomed && time.Since(cs.hello) >= giveUpAfter:
		return o, why // §4.2
	case !cs.welcomed:
		return Exited, fmt.Sprintf("the client ended before any Welcome or Rejected (%s): it took a datagram it had to ignore for one (§4.3, §4.4), or crashed", endText(err))
	case err == nil:
		return Exited, "the client ended with status 0 and no Disconnect (§7.3), its session alive: a datagram it had to drop or process ended it (§12)"
	}
	return Exited, fmt.Sprintf("the client ended (%s), its session alive (§12)", endText(err))
}

// drain takes what the client sent for d, and returns the first finding
// of it.
func (cs *clientSess) drain(d time.Duration) (o Oracle, why string) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return o, why
		case dg, ok := <-cs.in:
			if !ok {
				return o, why
			}
			if o2, why2 := cs.take(dg); o == 0 {
				o, why = o2, why2
			}
		}
	}
}

// endText says how a client ended.
func endText(err error) string {
	if err == nil {
		return "status 0"
	}
	return err.Error()
}

// wants reports whether a replay for oracle want takes oracle o: any when
// want is 0; an end for a client that stopped answering, as its silence
// follows (§12).
func wants(want, o Oracle) bool {
	return o != 0 && (want == 0 || o == want || want == StoppedAnswering && o == Exited)
}

// watch reads what the client sends, and how it ends, for d at most, and
// returns the first finding want takes. over reports that the client
// ended, as a finding or not. With settling, it returns early once the
// client acknowledged the probe and settleTime passed.
func (cs *clientSess) watch(want Oracle, d time.Duration, settling bool) (o Oracle, why string, over bool) {
	limit := time.NewTimer(d)
	defer limit.Stop()
	poll := time.NewTicker(tick)
	defer poll.Stop()
	var calm <-chan time.Time
	for {
		select {
		case <-limit.C:
			if o, why := cs.stall(); wants(want, o) {
				return o, why, false
			}
			return 0, "", false
		case <-calm:
			return 0, "", false
		case err := <-cs.ended:
			cs.ended = nil
			if o, why := cs.endOf(err); wants(want, o) {
				return o, why, true
			}
			return 0, "", true
		case dg, ok := <-cs.in:
			if !ok {
				return 0, "", true
			}
			if o, why := cs.take(dg); wants(want, o) {
				return o, why, false
			}
			if settling && calm == nil && cs.probed {
				calm = time.After(settleTime)
			}
		case <-poll.C:
			if o, why := cs.stall(); wants(want, o) {
				return o, why, false
			}
			if settling && cs.stuck() && cs.answers-cs.settleFrom >= stuckFrames {
				return 0, "", false // the probe cannot be acknowledged
			}
		}
	}
}

// settle gives the datagrams sent their time to act: it sends a valid
// packet with no message (§5.3) and watches until the client acknowledged
// it (§5.1) and settleTime passed, or 2 × LiveWait; a stuck client, which
// acknowledges nothing, is watched for settleTime and stuckFrames of its
// datagrams, up to LiveWait.
func (cs *clientSess) settle(want Oracle) (Oracle, string, bool) {
	cs.settleFrom = cs.answers
	if cs.stuck() {
		return cs.watchStuck(want)
	}
	if cs.welcomed {
		cs.probe, cs.probed = cs.ctx.Seq+1, false
		cs.emit(appendHeader(nil, nextHeader(&cs.ctx)))
	}
	return cs.watch(want, 2*LiveWait, true)
}

// watchStuck watches a stuck client for settleTime, and on until it sent
// stuckFrames datagrams since settle began, up to LiveWait.
func (cs *clientSess) watchStuck(want Oracle) (Oracle, string, bool) {
	end := time.Now().Add(LiveWait)
	o, why, over := cs.watch(want, settleTime, false)
	for o == 0 && !over && cs.answers-cs.settleFrom < stuckFrames && time.Now().Before(end) {
		o, why, over = cs.watch(want, min(settleTime, time.Until(end)), false)
	}
	return o, why, over
}
