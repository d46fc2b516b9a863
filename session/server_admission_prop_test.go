package session

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/rtypeproto/rtype"
)

// mstate is where a modelled client is.
type mstate uint8

const (
	mIdle      mstate = iota // no Client on this port
	mHello                   // sent Hello, waiting for an answer
	mConnected               // accepted a Welcome and sends packets
	mRejected                // told Rejected
)

// mclient is a client as the property models it: it accepts the first
// Welcome or Rejected after its Hello (§4.3, §4.4), then sends a packet at
// every frame, numbered from 1 (§5.2), and treats a Rejected from the
// server as the end (§4.4).
type mclient struct {
	addr  netip.AddrPort
	state mstate
	id    uint32
	seq   uint32
}

// admissionRun drives one server through decoded operations and checks
// the invariants after each.
type admissionRun struct {
	t       *testing.T
	s       *Server
	now     time.Time
	out     []wire
	clients []mclient
	spoofed []netip.AddrPort
	in, got map[netip.AddrPort]int // datagrams from and to non-players
	closes  int
	firstRejected,
	maxConns, maxWaiting int
	failure string
}

const (
	propPlayers = 2
	propReal    = 8
	propSpoofed = 300
)

func newAdmissionRun(t *testing.T) *admissionRun {
	r := &admissionRun{t: t, now: t0, in: map[netip.AddrPort]int{}, got: map[netip.AddrPort]int{}}
	r.s = NewServer(ServerConfig{MaxPlayers: propPlayers, EventQueue: 8}, func(to netip.AddrPort, b []byte) {
		r.out = append(r.out, wire{to, append([]byte(nil), b...)})
	})
	for i := range propReal {
		r.clients = append(r.clients, mclient{addr: netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(10 + i)}), 6000)})
	}
	r.spoofed = make([]netip.AddrPort, propSpoofed)
	for i := range r.spoofed {
		r.spoofed[i] = netip.AddrPortFrom(netip.AddrFrom4([4]byte{203, 0, 113, byte(i)}), uint16(9000+i))
	}
	return r
}

func (r *admissionRun) fail(msg string) {
	if r.failure == "" {
		r.failure = msg
	}
}

// receive hands d from a to the server and checks its answer: at most one
// datagram, to a, no larger than d except a Welcome for a Hello (§4.3,
// §12); a non-player is never sent more datagrams than it sent.
func (r *admissionRun) receive(d []byte, a netip.AddrPort) {
	player := r.s.byAddr(a) != nil
	r.out = nil
	r.s.Receive(d, a, r.now)
	if len(r.out) > 1 {
		r.fail("more than one answer to a datagram")
	}
	for _, w := range r.out {
		welcome := isHello(d) && len(w.b) == rtype.WelcomeSize
		if w.to != a || (len(w.b) > len(d) && !welcome) {
			r.fail("an answer larger than its datagram, or to another address")
		}
	}
	if !player && r.s.byAddr(a) == nil {
		r.in[a]++
		r.got[a] += len(r.out)
		if r.got[a] > r.in[a] {
			r.fail("a non-player got more datagrams than it sent")
		}
	}
	r.deliver()
}

// deliver gives the modelled clients what the server sent.
func (r *admissionRun) deliver() {
	for _, w := range r.out {
		for i := range r.clients {
			c := &r.clients[i]
			if c.addr != w.to {
				continue
			}
			typ, id, err := rtype.ParseHandshake(w.b)
			switch {
			case err != nil:
			case typ == rtype.HandshakeWelcome && c.state == mHello:
				c.state, c.id, c.seq = mConnected, id, 0
			case typ == rtype.HandshakeRejected && (c.state == mHello || c.state == mConnected):
				if c.state == mConnected {
					r.firstRejected++
				}
				c.state = mRejected
			}
		}
	}
	r.out = nil
}

func (r *admissionRun) send(c *mclient, msgs ...rtype.Message) {
	c.seq++
	b, _ := rtype.PacketHeader{ConnectionID: c.id, Sequence: c.seq}.AppendBinary(nil)
	for _, m := range msgs {
		b, _ = rtype.AppendMessage(b, m)
	}
	r.receive(b, c.addr)
}

// frame advances the time by dt, lets every connected client send, and
// ticks; the game polls its events unless told not to.
func (r *admissionRun) frame(dt time.Duration, poll bool) {
	r.now = r.now.Add(dt)
	for i := range r.clients {
		if c := &r.clients[i]; c.state == mConnected {
			r.send(c, rtype.Input{InputSequence: c.seq})
		}
	}
	r.out = nil
	r.s.Tick(r.now)
	for _, w := range r.out {
		if r.s.byAddr(w.to) == nil {
			r.fail("Tick sent to an address that is no player")
		}
	}
	r.deliver()
	if poll {
		for e := range r.s.Events() {
			if e.Kind == EventPlayerLeft {
				r.closes++
			}
		}
	}
}

// op decodes and runs one operation.
func (r *admissionRun) op(v uint64) {
	rng := rand.New(rand.NewPCG(v, 7))
	c := &r.clients[int(v>>16)%propReal]
	if v%100000 < 20 {
		r.s.Shutdown(r.now) // rare: the game ends
		r.check()
		return
	}
	switch k := v % 1000; {
	case k < 200: // a Client starts on a port, or a spoofed Hello from it
		if c.state != mConnected {
			c.state = mHello
		}
		r.receive(hello(), c.addr)
	case k < 320: // a flood of spoofed Hellos
		for range 40 {
			r.receive(hello(), r.spoofed[rng.IntN(propSpoofed)])
		}
	case k < 400: // garbage, or a guessed first packet, from anyone
		a := r.spoofed[rng.IntN(propSpoofed)]
		if rng.IntN(2) == 0 {
			a = c.addr
		}
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if len(b) >= 16 && rng.IntN(2) == 0 {
			b = packet(r.t, rtype.PacketHeader{ConnectionID: rng.Uint32() | 1, Sequence: 1})
		}
		r.receive(b, a)
	case k < 500: // a connected client quits (§7.3)
		if c.state == mConnected {
			r.send(c, rtype.Disconnect{Reason: 1})
			c.state = mIdle
		}
	case k < 650: // clients join and quit at once, again and again
		for range 8 {
			if c.state == mConnected {
				break
			}
			c.state = mHello
			r.receive(hello(), c.addr)
			if c.state == mConnected {
				r.send(c)
				r.send(c, rtype.Disconnect{Reason: 1})
				c.state = mIdle
			}
		}
	case k < 900:
		r.frame(time.Second/60, k%4 != 0)
	default:
		r.frame(time.Duration(rng.IntN(2000))*time.Millisecond, true)
	}
	r.check()
}

// check verifies the bounds of every table.
func (r *admissionRun) check() {
	s := r.s
	conns, waiting := 0, 0
	ids := map[uint32]bool{}
	addrs := map[netip.AddrPort]bool{}
	for i := range s.conns {
		if c := &s.conns[i]; c.state == placeTaken {
			conns++
			if c.id == 0 || ids[c.id] || addrs[c.addr] {
				r.fail("open connection ids or addresses not unique")
			}
			ids[c.id], addrs[c.addr] = true, true
		}
	}
	for i := range s.waiting {
		if w := &s.waiting[i]; w.state == placeTaken {
			waiting++
			if addrs[w.addr] {
				r.fail("an address both player and waiting, or waiting twice")
			}
			addrs[w.addr] = true
		}
	}
	if conns != s.nConns || conns > propPlayers || waiting != s.nWaiting || len(s.waiting) != propPlayers ||
		len(s.closed.e) != closedSize || liveClosed(&s.closed, r.now) > closedSize || len(s.events.buf) != 8+2*propPlayers {
		r.fail("a table out of its bounds")
	}
	r.maxConns, r.maxWaiting = max(r.maxConns, conns), max(r.maxWaiting, waiting)
}

// settle lets every connected client keep sending for a while and checks
// that none was silently dropped: each is a player, waiting, or was told
// Rejected.
func (r *admissionRun) settle() {
	for range 30 {
		r.frame(time.Second/60, true)
	}
	for i := range r.clients {
		c := &r.clients[i]
		if c.state != mConnected {
			continue
		}
		conn, w := r.s.byAddr(c.addr), r.s.waiterByAddr(c.addr)
		if !(conn != nil && conn.id == c.id) && !(w != nil && w.id == c.id) {
			r.fail("a welcomed client that keeps sending is neither player, waiting nor rejected")
		}
	}
}

// §4.2–§4.4, §5.2, §10, §12: under any interleaving of Hellos, spoofed
// floods, garbage, first packets, Disconnects, time steps and Ticks from
// more addresses than slots and queue, every welcomed client that keeps
// sending ends as a player, waiting or told Rejected; no non-player is sent
// more datagrams than it sent, nor an answer larger than its datagram but
// for a Welcome; every table stays within its bounds, and each bound is
// reached.
func TestServer_AdmissionProperty(t *testing.T) {
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 150
	params.MaxSize = 600
	// A fixed seed, so that the check below that every bound is reached
	// is not left to chance.
	params.SetSeed(42)
	p := gopter.NewProperties(params)
	var maxConns, maxWaiting, firstRejected, maxCloses int
	p.Property("no welcomed client is silently dropped", prop.ForAll(func(ops []uint64) string {
		r := newAdmissionRun(t)
		for _, v := range ops {
			r.op(v)
		}
		r.settle()
		maxConns, maxWaiting = max(maxConns, r.maxConns), max(maxWaiting, r.maxWaiting)
		firstRejected += r.firstRejected
		maxCloses = max(maxCloses, r.closes)
		return r.failure
	}, gen.SliceOf(gen.UInt64())))
	p.TestingRun(t)
	if maxConns != propPlayers || maxWaiting != propPlayers || firstRejected == 0 || maxCloses <= closedSize {
		t.Errorf("bounds reached: %d players, %d waiting, %d first packets rejected, %d closes in a run; want %d, %d, some, over %d",
			maxConns, maxWaiting, firstRejected, maxCloses, propPlayers, propPlayers, closedSize)
	}
}
