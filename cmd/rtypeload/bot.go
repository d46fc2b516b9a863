package main

import (
	"math/rand/v2"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/session"
)

// clientConfig is every bot's session client: entities unlisted for 1 s
// expire, as examples/bot's do (§13.4), and a small event queue, read
// after every datagram, keeps a bot's memory small (the default holds
// 4096 events, 400 kB).
var clientConfig = session.ClientConfig{ExpireUnlisted: time.Second, EventQueue: 128}

// stallAt is how long since its last Snapshot a bot counts, at the run's
// end, as an interval still open: two Snapshot periods (§10), a round
// missed. A shorter open interval is just the next one on its way.
const stallAt = 100 * time.Millisecond

// stalledAt is how long without a Snapshot at the run's end fails a bot:
// 20 Snapshot periods (§10), as a bot whose server went silent in the
// last seconds of a run is still Playing, its timeout not yet run out.
const stalledAt = time.Second

// bot is one player: a session client on its own UDP socket, since the
// server tells clients apart by address (§3). Only its loop touches it.
type bot struct {
	m      *match
	k      int // its number in the match, 0 to 3
	conn   *mmsg.Conn
	src    netip.Addr // its address on a loop's shared socket, else zero
	client *session.Client
	out    *outbox // its loop's
	rng    *rand.Rand
	loss   float64

	last    time.Time // the latest time given to the client
	frame   uint32
	closing bool // its Disconnect is being sent
	stalled bool // no Snapshot for stalledAt at the end
	// dropped: -loss dropped a datagram since the last Snapshot round.
	dropped bool

	// What is measured, until freeze.
	measuring bool
	snapshots uint64 // Snapshot rounds received (§8.1)
	lastSnap  time.Time
	lastTick  uint32
	in, sent  uint64 // datagrams read from and written to the socket
	err       error  // the socket failed

	// The client as freeze found it.
	end    time.Time
	stats  session.ClientStats
	state  session.State
	reason session.CloseReason
}

// newBot returns bot k of m on socket conn, sending through out.
func newBot(m *match, k int, conn *mmsg.Conn, out *outbox, loss float64) *bot {
	b := &bot{
		m: m, k: k, conn: conn, out: out, loss: loss, measuring: true,
		rng: rand.New(rand.NewPCG(uint64(m.index), uint64(k))),
	}
	b.client = session.NewClient(m.server, clientConfig, b.send)
	return b
}

// send is the client's SendFunc: the simulated loss (a Disconnect is
// spared, so that the next run finds the slots free), then the outbox.
func (b *bot) send(to netip.AddrPort, datagram []byte) {
	if !b.closing && b.lose() {
		return
	}
	b.out.put(to, datagram)
}

// lose draws whether a datagram is lost, as examples/bot's -loss does.
func (b *bot) lose() bool { return b.loss > 0 && b.rng.Float64() < b.loss }

// clock returns t as the next time to give the client: in one clock, the
// kernel's arrival stamps carrying no monotonic reading, and never before
// the last, as a datagram read now may have arrived before the last
// frame's Input was sent.
func (b *bot) clock(t time.Time) time.Time {
	t = t.Round(0)
	if t.Before(b.last) {
		t = b.last
	}
	b.last = t
	return t
}

// active reports whether the bot still has a session to drive.
func (b *bot) active() bool { return b.err == nil && b.client.State() != session.Closed }

// receive hands the client one datagram read from the socket, arrived at.
func (b *bot) receive(datagram []byte, from netip.AddrPort, at time.Time) {
	if b.measuring {
		b.in++
	}
	if b.lose() {
		// The interval this drop may stretch is the simulated link's, not
		// the server's: it is not measured.
		b.dropped = true
		return
	}
	now := b.clock(at)
	b.client.Receive(datagram, from, now)
	// A datagram read a frame late may have arrived before the time the
	// client was last given; it gets that time, but is measured at its
	// arrival, or a busy loop would stretch the intervals it reports.
	b.events(now.Sub(at))
}

// play is the bot's frame once its datagrams are read: the client's
// timers, then one Input (§7.1), which carries the Pings and QueryEntity
// messages due (§7.2, §7.4).
func (b *bot) play(now time.Time) {
	now = b.clock(now)
	b.client.Update(now)
	b.events(0)
	if b.client.State().Connected() && b.client.SendInput(script(b.m.index, b.k, b.frame), now) == nil {
		b.frame++
	}
}

// events reads the client's events: Snapshots and Pongs are measured,
// skew earlier than the client saw them: when their datagram arrived.
func (b *bot) events(skew time.Duration) {
	for ev := range b.client.Events() {
		switch ev.Kind {
		case session.EventSnapshot:
			b.snapshot(ev.Tick, ev.At.Add(-skew))
		case session.EventPong:
			if b.measuring {
				b.m.rtt.add(ev.RTT - skew)
			}
		}
	}
}

// snapshot measures the interval since the last Snapshot round. The
// first one, which made the client Playing, only starts the count: the
// wait for the world is no interval.
func (b *bot) snapshot(tick uint32, at time.Time) {
	if !b.measuring {
		return
	}
	if b.snapshots > 0 {
		if !rtype.SequenceNewer(tick, b.lastTick) {
			return // another message of the round (§8.1), or a late one
		}
		if !b.dropped {
			b.m.snap.add(at.Sub(b.lastSnap))
		}
	}
	b.dropped = false
	b.snapshots++
	b.lastSnap, b.lastTick = at, tick
}

// wrote counts a turn's datagrams sent, and keeps the socket's error.
func (b *bot) wrote(n int, err error) {
	if b.measuring {
		b.sent += uint64(n)
	}
	b.fail(err)
}

// fail records the socket's first error.
func (b *bot) fail(err error) {
	if err != nil && b.err == nil {
		b.err = err
	}
}

// freeze ends the measure at now, before the bot disconnects: a stall
// under way counts as an interval, and the client's state and counters
// are kept.
func (b *bot) freeze(now time.Time) {
	if b.err == nil && b.snapshots > 0 && now.Sub(b.lastSnap) >= stallAt {
		b.m.snap.add(now.Sub(b.lastSnap))
		// A client keeps Playing for its ServerTimeout after the server
		// went silent: one that long without a Snapshot lost its world.
		b.stalled = now.Sub(b.lastSnap) >= stalledAt
	}
	b.measuring = false
	b.end = now
	b.stats = b.client.Stats()
	b.state, b.reason = b.client.State(), b.client.CloseReason()
}
