package conformance

import (
	"fmt"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype"
)

// player is the suite's scripted client in server mode: a fresh socket,
// its handshake, its numbering of packets and Inputs, and what the server
// told it: the world as a client keeps it, and every entity message as
// sent (seen). It does only what the case asks: no Hello or Input is sent
// behind the case's back.
type player struct {
	peer
	inputSeq uint32
	frame    uint32
	left     bool

	world world
	seen  watcher
	// handshakes lists the first maxHandshakes handshake datagrams after
	// the Welcome.
	handshakes []rtype.HandshakeType
	// odd describes the first answer to a Hello that was no valid
	// Welcome, for the reason of a skip; rejected says a Rejected came.
	odd      string
	rejected bool
	// counted says the player counts among the case's players.
	counted bool
	// own is the player's ship as join saw it arrive, 0 if none did.
	own uint32
}

const maxHandshakes = 64

// Timing of the scripted client: Hellos faster than §4.2's one a second,
// so that a case does not wait on a lost one, and how long an answer may
// take on loopback.
const (
	helloEvery = 200 * time.Millisecond
	welcomeBy  = 2 * time.Second
	replyWait  = 500 * time.Millisecond
	frameTime  = time.Second / 60
)

// How long the cases that watch what the server sends play: watchPlay
// shows about 8 Snapshots at §10's rate, each in a packet of its own;
// rateWatch, for the cases that measure the Snapshot and tick rates (§10),
// about 40 Snapshots and 120 ticks: two seconds, so that a fault coming
// once a second (a loop stopping half a second) falls whole between the
// first Snapshot watched and the last, whatever its phase.
const (
	watchPlay = 400 * time.Millisecond
	rateWatch = 2 * time.Second
)

// newPlayer opens a fresh socket towards the server under test: on a
// port of the server's own address on loopback and on a network of the
// options' own, on any address of its family otherwise.
func (t *check) newPlayer() *player {
	var bind netip.AddrPort
	switch {
	case t.ownNet, t.srv.server.Addr().IsLoopback():
		// The address the server will see, as the report shows it.
		bind = netip.AddrPortFrom(t.srv.server.Addr(), 0)
	case t.srv.server.Addr().Is4():
		bind = netip.AddrPortFrom(netip.IPv4Unspecified(), 0)
	default:
		bind = netip.AddrPortFrom(netip.IPv6Unspecified(), 0)
	}
	p := &player{peer: peer{t: t, ep: t.socket(bind), to: t.srv.server}, world: newWorld()}
	p.ep.awaitWelcome(t.srv.server)
	p.handshake = p.takeHandshake
	p.observe(func(m msg) { p.world.apply(m.raw) })
	p.observe(p.seen.see)
	return p
}

// takeHandshake records a handshake datagram from the server: a 6 or
// 10-byte one of any valid type.
func (p *player) takeHandshake(dg datagram) bool {
	if len(dg.b) != 6 && len(dg.b) != 10 {
		return false
	}
	typ, _, err := rtype.ParseHandshake(dg.b)
	if err != nil {
		return false
	}
	if len(p.handshakes) < maxHandshakes {
		p.handshakes = append(p.handshakes, typ)
	}
	return true
}

// handshake sends Hello until a valid Welcome comes. Without one the case
// is not run: the server said it is full (Rejected), or took the case's
// other players and not this one, or lacks the handshake, which 4.2/1
// judges.
func (t *check) handshake() *player {
	t.need(capWelcome)
	p := t.newPlayer()
	if !p.hello(welcomeBy) {
		t.noJoin(p, fmt.Sprintf("no Welcome within %v of the first Hello", t.paced(welcomeBy)), capWelcome)
	}
	return p
}

// join is handshake, then a first packet carrying a Ping whose Pong shows
// the server took the connection; without the Pong the case is not run,
// or fails if it is 7.2/1.
func (t *check) join() *player {
	t.need(capPong)
	p := t.handshake()
	// One join at a time in the run: the ship that arrives next is this
	// player's (§10 sends a newcomer the world, then its own ship), not
	// that of another case's player joining in the same tick.
	t.suite.joining <- struct{}{}
	defer func() { <-t.suite.joining }()
	ts := p.ping()
	if _, ok := p.pong(ts, t.paced(time.Second)); !ok {
		t.noJoin(p, fmt.Sprintf("welcomed as connection %d, but no Pong within %v of the first packet's Ping", p.id, t.paced(time.Second)), capPong)
	}
	if _, lacks := t.suite.ladder.lacking(capShip); !lacks {
		end := t.within(t.paced(shipWait))
		for p.world.newestShip() == 0 && time.Now().Before(end) {
			p.settle(frameTime)
		}
		p.own = p.world.newestShip()
	}
	return p
}

// shipWait is how long join waits for the player's ship once its first
// packet was answered: a few ticks (§10).
const shipWait = 200 * time.Millisecond

// noJoin ends a case whose player p could not join, saying why: the
// server's Rejected, other players of the case taken and not this one,
// or the capability c missing.
func (t *check) noJoin(p *player, what string, c capability) {
	t.mu.Lock()
	others := t.srv.players
	if p.counted {
		others--
	}
	t.mu.Unlock()
	switch {
	case p.rejected:
		t.Skipf("not run: %s; the server answered Rejected: it is full (§4.4)", what)
	case others > 0:
		t.waitedOut("not run: %s; the server took the case's %d other player(s), not this one: it may be full", what, others)
	case p.odd != "" && c == capWelcome:
		t.lack(c, fmt.Sprintf("%s; the server answered %s", what, p.odd))
	}
	t.lack(c, what)
}

// hello sends Hellos (helloUntil) until a valid Welcome (§4.3) comes from
// the server within d, grown to the run's pace.
func (p *player) hello(d time.Duration) bool {
	p.t.needWelcome()
	_, ok := p.helloUntil(p.t.paced(d), isWelcome)
	return ok
}

// helloInterval is how often a wait of d for an answer sends Hello:
// every helloEvery, or every tenth of a longer wait, paced to a slow
// server, whose queue each Hello lengthens.
func helloInterval(d time.Duration) time.Duration { return max(helloEvery, d/10) }

// needWelcome skips the case at once when the server answered the run's
// first Hellos with no valid Welcome: each case would wait for one in
// vain.
func (t *check) needWelcome() {
	if t.srv.noWelcome != "" {
		t.Skipf("the server answered the run's first Hellos with %s, never a valid Welcome (cases 4.2/1 and 4.3 judge it): the case needs a connection", t.srv.noWelcome)
	}
}

// helloUntil sends Hello every helloInterval(d) for up to d and returns
// the first datagram from the server that accept accepts. A valid Welcome
// among them connects the player, which then leaves at the case's end.
func (p *player) helloUntil(d time.Duration, accept func(datagram) bool) (datagram, bool) {
	end := p.t.within(d)
	for time.Now().Before(end) {
		p.sendRaw(rtype.AppendHello(nil))
		for next := earliest(p.t.within(helloInterval(d)), end); ; {
			dg, ok := p.recv(next)
			if !ok {
				break
			}
			typ, id, err := rtype.ParseHandshake(dg.b)
			welcome := err == nil && typ == rtype.HandshakeWelcome
			p.rejected = p.rejected || err == nil && typ == rtype.HandshakeRejected
			if !welcome && p.odd == "" {
				p.odd = fmt.Sprintf("a datagram of %d bytes (% x) at %v", len(dg.b), head(dg.b), p.t.at(dg.at))
			}
			if !accept(dg) {
				continue
			}
			if welcome {
				p.welcomed(id)
			}
			return dg, true
		}
	}
	return datagram{}, false
}

// welcomed takes connection id from a Welcome, so the case ends with a
// Disconnect on a server that opened a connection on Hello.
func (p *player) welcomed(id uint32) {
	if p.id != 0 {
		return
	}
	p.id = id
	p.ep.connected.Store(true)
	p.t.cleanup(p.leave)
	p.t.mu.Lock()
	p.counted = true
	p.t.srv.players++
	p.t.mu.Unlock()
}

// isWelcome accepts a valid Welcome (§4.3).
func isWelcome(dg datagram) bool {
	typ, _, err := rtype.ParseHandshake(dg.b)
	return err == nil && typ == rtype.HandshakeWelcome
}

// leave sends Disconnect reason 1 (§7.3) once, if the player is connected.
func (p *player) leave() {
	if p.id == 0 || p.left {
		return
	}
	p.left = true
	if p.counted {
		p.t.mu.Lock()
		p.t.srv.players--
		p.t.mu.Unlock()
	}
	p.send(rtype.Disconnect{Reason: rtype.DisconnectClientQuit})
}

// input sends one Input of the next inputSequence (§7.1) in the next packet.
func (p *player) input(a rtype.Actions) {
	p.inputSeq++
	p.frame++
	p.send(rtype.Input{InputSequence: p.inputSeq, ClientTick: p.frame, Actions: a})
}

// inputAt sends, in the next packet, an Input numbered seq holding a.
func (p *player) inputAt(seq uint32, a rtype.Actions) {
	p.frame++
	p.send(rtype.Input{InputSequence: seq, ClientTick: p.frame, Actions: a})
}

// inputs sends several Inputs in the next packet, numbered in order.
func (p *player) inputs(as ...rtype.Actions) {
	msgs := make([]rtype.Message, 0, len(as))
	for _, a := range as {
		p.inputSeq++
		p.frame++
		msgs = append(msgs, rtype.Input{InputSequence: p.inputSeq, ClientTick: p.frame, Actions: a})
	}
	p.send(msgs...)
}

// pingCount makes each Ping's timestamp unique across a run.
var pingCount atomic.Uint32

// ping sends the next packet with a Ping and returns its timestamp.
func (p *player) ping() uint32 {
	ts := p.pingStamp()
	p.send(rtype.Ping{Timestamp: ts})
	return ts
}

func (p *player) pingStamp() uint32 {
	return 0x5A000000 | pingCount.Add(1)&0xFFFFFF
}
