package planted

import (
	"context"
	"net/netip"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/rtypetest"
)

// Addresses on the tests' in-memory networks.
var (
	serverAddr = netip.MustParseAddrPort("10.0.0.1:4242")
	clientIP   = netip.MustParseAddr("10.0.0.2")
)

// running is a Serve started in a bubble: stop ends it and returns what
// it returned.
type running struct {
	done   chan error
	cancel context.CancelFunc
}

// serve starts Serve with bug on serverAddr of nw until the test ends.
func serve(t *testing.T, nw *rtypetest.Network, bug Bug) *running {
	t.Helper()
	conn, err := nw.Listen(serverAddr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{done: make(chan error, 1), cancel: cancel}
	go func() { r.done <- Serve(ctx, conn, bug) }()
	t.Cleanup(func() { r.stop() })
	return r
}

// ended returns Serve's error if it returned within d.
func (r *running) ended(d time.Duration) (error, bool) {
	select {
	case err := <-r.done:
		r.done <- err
		return err, true
	case <-time.After(d):
		return nil, false
	}
}

func (r *running) stop() error {
	r.cancel()
	err := <-r.done
	r.done <- err
	return err
}

// inBubble runs f in a testing/synctest bubble, in virtual time, on a
// fresh in-memory network.
func inBubble(t *testing.T, f func(t *testing.T, nw *rtypetest.Network)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) { f(t, rtypetest.NewNetwork(1)) })
}

// player is a client written by hand: a socket, a connection id, the
// next sequence.
type player struct {
	t    *testing.T
	conn *rtypetest.Conn
	id   uint32
	seq  uint32
}

// join opens a socket on nw, sends Hello and waits a second for Welcome
// (§4.2, §4.3).
func join(t *testing.T, nw *rtypetest.Network) *player {
	t.Helper()
	p, ok := tryJoin(t, nw)
	if !ok {
		t.Fatal("no Welcome within 1s of a Hello")
	}
	return p
}

// tryJoin is join, reporting false for no Welcome.
func tryJoin(t *testing.T, nw *rtypetest.Network) (*player, bool) {
	t.Helper()
	c, err := nw.Listen(netip.AddrPortFrom(clientIP, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := &player{t: t, conn: c, seq: 1}
	p.raw(helloDatagram())
	b, ok := p.await(time.Second, isWelcome)
	if !ok {
		return nil, false
	}
	p.id = be.Uint32(b[6:])
	return p, true
}

// isWelcome reports whether b is a valid Welcome (§4.3).
func isWelcome(b []byte) bool {
	return len(b) == welcomeSize && be.Uint32(b) == magic && b[4] == version && b[5] == typeWelcome && be.Uint32(b[6:]) != 0
}

// raw sends b as it is.
func (p *player) raw(b []byte) {
	if _, err := p.conn.WriteToUDPAddrPort(b, serverAddr); err != nil {
		p.t.Fatal(err)
	}
}

// send sends msgs in the next packet.
func (p *player) send(msgs ...[]byte) {
	p.raw(packet(p.id, p.seq, msgs...))
	p.seq++
}

// sendSeq sends msgs in a packet of sequence seq, the window's business.
func (p *player) sendSeq(seq uint32, msgs ...[]byte) { p.raw(packet(p.id, seq, msgs...)) }

// await reads for up to d until a datagram matches.
func (p *player) await(d time.Duration, match func([]byte) bool) ([]byte, bool) {
	deadline := time.Now().Add(d)
	buf := make([]byte, recvBuffer)
	for {
		p.conn.SetReadDeadline(deadline)
		n, _, err := p.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return nil, false
		}
		if match(buf[:n]) {
			return buf[:n], true
		}
	}
}

// pong waits up to d for a Pong of ts (§8.4).
func (p *player) pong(ts uint32, d time.Duration) bool {
	_, ok := p.await(d, func(b []byte) bool { return slices.Contains(pongs(b), ts) })
	return ok
}

// pongsWithin returns the timestamps of the Pongs that come within d.
func (p *player) pongsWithin(d time.Duration) map[uint32]bool {
	got := map[uint32]bool{}
	p.await(d, func(b []byte) bool {
		for _, ts := range pongs(b) {
			got[ts] = true
		}
		return false
	})
	return got
}

// shipID waits a second for the CreateEntity of a ship and returns its
// id: after join, the player's own, when it is alone in the game.
func (p *player) shipID() uint32 {
	b, ok := p.await(time.Second, func(b []byte) bool { return len(ships(b)) > 0 })
	if !ok {
		p.t.Fatal("no ship's CreateEntity within 1s")
	}
	ids := ships(b)
	return ids[len(ids)-1]
}

// alive reports whether the server still answers: a Ping from p and one
// from a fresh player, each within a second.
func alive(t *testing.T, nw *rtypetest.Network, p *player) bool {
	t.Helper()
	p.send(ping(4242))
	if !p.pong(4242, time.Second) {
		return false
	}
	q, ok := tryJoin(t, nw)
	if !ok {
		return false
	}
	q.send(ping(4343))
	return q.pong(4343, time.Second)
}
