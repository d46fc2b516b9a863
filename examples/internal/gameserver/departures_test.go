package gameserver

import (
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// rawPeer drives a session server driven by a game Server with hand-made
// datagrams, one address per connection, as a Hello/Disconnect flood would.
type rawPeer struct {
	t   *testing.T
	g   *Server
	srv *session.Server
	now time.Time
	// out holds the datagrams the server sent since the last take.
	out []sent
}

type sent struct {
	to netip.AddrPort
	b  []byte
}

func newRawPeer(t *testing.T, cfg Config) *rawPeer {
	p := &rawPeer{t: t, g: New(cfg), now: time.Unix(1000, 0)}
	p.srv = session.NewServer(p.g.SessionConfig(), func(to netip.AddrPort, b []byte) {
		p.out = append(p.out, sent{to, append([]byte(nil), b...)})
	})
	return p
}

func (p *rawPeer) take() []sent {
	out := p.out
	p.out = nil
	return out
}

// packet is one connected packet from conn with the messages given (§5.1).
func (p *rawPeer) packet(conn, seq, ack uint32, msgs ...rtype.Message) []byte {
	b, err := rtype.PacketHeader{ConnectionID: conn, Sequence: seq, Ack: ack}.AppendBinary(nil)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, m := range msgs {
		if b, err = rtype.AppendMessage(b, m); err != nil {
			p.t.Fatal(err)
		}
	}
	return b
}

// hello sends Hello from addr and returns the id of the Welcome (§4.2, §4.3).
func (p *rawPeer) hello(addr netip.AddrPort) uint32 {
	p.srv.Receive(rtype.AppendHello(nil), addr, p.now)
	for _, d := range p.take() {
		if t, id, err := rtype.ParseHandshake(d.b); err == nil && t == rtype.HandshakeWelcome && d.to == addr {
			return id
		}
	}
	p.t.Fatalf("no Welcome for %v", addr)
	return 0
}

// step runs one game tick and one session tick.
func (p *rawPeer) step() {
	p.g.Step(p.srv, p.now)
	p.srv.Tick(p.now)
	p.take()
	p.now = p.now.Add(time.Second / 60)
}

func peerAddr(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), 5000)
}

// §7.3, §12: connections that open and leave over and over, as a Hello,
// first packet and Disconnect flood makes them, leave the game server with
// the counters of at most the last KeptDepartures of them, and the latest
// ones readable.
func TestSpec12_DeparturesBounded(t *testing.T) {
	p := newRawPeer(t, Config{})
	const n = 1000
	var last uint32
	for i := range n {
		a := peerAddr(i)
		id := p.hello(a)
		p.srv.Receive(p.packet(id, 1, 0), a, p.now)
		p.srv.Receive(p.packet(id, 2, 0, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), a, p.now)
		p.step()
		last = id
	}
	p.g.mu.Lock()
	kept := len(p.g.conns)
	p.g.mu.Unlock()
	if kept > KeptDepartures {
		t.Fatalf("%d departures kept after %d connections, want at most %d", kept, n, KeptDepartures)
	}
	if _, ok := p.g.ConnStats(last); !ok {
		t.Fatalf("the counters of the last connection %d are gone", last)
	}
}
