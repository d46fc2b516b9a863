package planted

import (
	"context"
	"encoding"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// sink is a socket that keeps what is written to it and reads nothing:
// the fuzz targets drive the server and the client without their loops.
type sink struct{ sent [][]byte }

func (s *sink) ReadFromUDPAddrPort([]byte) (int, netip.AddrPort, error) {
	return 0, netip.AddrPort{}, net.ErrClosed
}

func (s *sink) WriteToUDPAddrPort(b []byte, _ netip.AddrPort) (int, error) {
	s.sent = append(s.sent, append([]byte(nil), b...))
	return len(b), nil
}

func (s *sink) LocalAddr() net.Addr { return net.UDPAddrFromAddrPort(serverAt) }
func (s *sink) Close() error        { return nil }

var (
	serverAt = netip.MustParseAddrPort("10.0.0.1:4242")
	playerAt = netip.MustParseAddrPort("10.0.0.2:5000")
)

// fuzzSeeds are valid packets of connection 1 and every trigger.
func fuzzSeeds(f *testing.F) {
	f.Add(packet(1, 1, ping(1), input(1, actRight|actShoot), query(1)))
	f.Add(packet(1, 1, leaveMsg(1)))
	for _, b := range Bugs() {
		f.Add(serverTrigger(b, 1, 2))
	}
	for _, m := range nearValid() {
		f.Add(packet(1, 2, m))
	}
	for _, b := range ClientBugs() {
		f.Add(packet(1, 2, clientTrigger(b)))
	}
}

// FuzzServer: the careful server never panics, whatever a connected
// player sends, and sends only datagrams the repository's codec finds
// valid (§2.2, §5.3, §8).
func FuzzServer(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, d []byte) {
		out := &sink{}
		now := time.Unix(0, 0)
		s := newServer(context.Background(), out, None, now)
		s.receive(helloDatagram(), playerAt, now)
		s.tick(now) // the player joins
		if len(d) >= 4 {
			be.PutUint32(d, 1) // its connection
		}
		for i := range 3 {
			now = now.Add(tickInterval)
			s.receive(exact(d), playerAt, now)
			s.receive(exact(d), netip.AddrPortFrom(playerAt.Addr(), 5001+uint16(i)), now)
			s.tick(now)
		}
		checkSent(t, out.sent)
	})
}

// checkSent fails t for a datagram the server sent that a client must
// drop: one over 548 bytes, broken framing, an invalid message.
func checkSent(t *testing.T, sent [][]byte) {
	t.Helper()
	for _, b := range sent {
		if _, _, err := rtype.ParseHandshake(b); err == nil {
			continue
		}
		p, err := rtype.ParsePacket(b)
		if err != nil {
			t.Fatalf("sent % x: %v", b, err)
		}
		for m := range p.Messages() {
			if u := decoder(m.Type); u != nil {
				if err := u.UnmarshalBinary(m.Payload); err != nil {
					t.Fatalf("sent a message of type %#x that a client must drop: %v", m.Type, err)
				}
			}
		}
	}
}

func decoder(typ rtype.MessageType) encoding.BinaryUnmarshaler {
	switch typ {
	case rtype.TypeSnapshot:
		return &rtype.Snapshot{}
	case rtype.TypeCreateEntity:
		return &rtype.CreateEntity{}
	case rtype.TypeDestroyEntity:
		return &rtype.DestroyEntity{}
	case rtype.TypePong:
		return &rtype.Pong{}
	}
	return nil
}

// FuzzClient: the careful client never panics, whatever its server
// sends, before and after the Welcome.
func FuzzClient(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, d []byte) {
		now := time.Unix(0, 0)
		c := newClient(&sink{}, serverAt, ClientNone, now)
		c.receive(d, serverAt, now)
		c.receive(welcome(1), serverAt, now)
		c.receive(d, serverAt, now)
		if len(d) >= 4 {
			be.PutUint32(d, 1) // its connection
		}
		c.receive(d, serverAt, now)
		c.frame(now.Add(frameInterval))
	})
}
