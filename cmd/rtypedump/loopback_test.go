package main

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// The committed capture uses fixed ports and times, so that a fresh run of
// the exchange produces the same file byte for byte.
const (
	capturedServerPort = rtype.DefaultPort
	capturedClientPort = 50001
)

var captureEpoch = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// endpoint is one side of the loopback exchange: a real UDP socket on
// 127.0.0.1 and the §5.2 state of its connection.
type endpoint struct {
	conn   *net.UDPConn
	id     uint32
	seq    uint32
	window rtype.SeqWindow
	// deaf makes the endpoint ignore received packets in its window, to
	// show loss in the acks it sends.
	deaf bool
}

// exchange sends datagrams between endpoints over loopback and records each
// one as it was received.
type exchange struct {
	t      *testing.T
	server *endpoint
	nextID uint32
	log    []captured
	want   []wantDatagram
	ports  map[netip.AddrPort]uint16
}

// wantDatagram is what rtypedump must report for one datagram of the
// exchange, written from the script, not from rtypedump.
type wantDatagram struct {
	kind  string
	valid bool
	types []string // message types of a valid packet, or the handshake type
}

func listen(t *testing.T) *endpoint {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatalf("listen on loopback: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return &endpoint{conn: c}
}

// send writes b from one endpoint to another, reads it on the other side and
// records it. The receiver feeds a valid packet to its window, as §5.2 has it.
func (x *exchange) send(from, to *endpoint, b []byte, want wantDatagram) []byte {
	x.t.Helper()
	if _, err := from.conn.WriteToUDP(b, to.conn.LocalAddr().(*net.UDPAddr)); err != nil {
		x.t.Fatalf("send: %v", err)
	}
	buf := make([]byte, 2048)
	to.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, addr, err := to.conn.ReadFromUDPAddrPort(buf)
	if err != nil {
		x.t.Fatalf("receive: %v", err)
	}
	got := buf[:n]
	if !bytes.Equal(got, b) || addr != from.conn.LocalAddr().(*net.UDPAddr).AddrPort() {
		x.t.Fatalf("loopback delivered %x from %v, sent %x from %v", got, addr, b, from.conn.LocalAddr())
	}
	if p, err := rtype.ParsePacket(got); err == nil && !to.deaf && to.id != 0 && want.kind == "packet" {
		to.window.Receive(p.Header().Sequence)
	}
	x.log = append(x.log, captured{
		time: captureEpoch.Add(time.Duration(len(x.log)) * time.Millisecond),
		src:  x.stable(addr), dst: x.stable(to.conn.LocalAddr().(*net.UDPAddr).AddrPort()),
		data: got,
	})
	x.want = append(x.want, want)
	return got
}

// stable maps the real ephemeral ports to fixed ones: the server to 4242,
// clients to 50001 and up in order of appearance.
func (x *exchange) stable(a netip.AddrPort) netip.AddrPort {
	if a == x.server.conn.LocalAddr().(*net.UDPAddr).AddrPort() {
		return netip.AddrPortFrom(a.Addr(), capturedServerPort)
	}
	p, ok := x.ports[a]
	if !ok {
		p = capturedClientPort + uint16(len(x.ports))
		x.ports[a] = p
	}
	return netip.AddrPortFrom(a.Addr(), p)
}

// packet builds the next packet of e with the core Builder.
func (x *exchange) packet(e *endpoint, msgs ...rtype.Message) []byte {
	x.t.Helper()
	e.seq++
	ack, bits := e.window.Ack()
	var b rtype.Builder
	if err := b.Reset(rtype.PacketHeader{ConnectionID: e.id, Sequence: e.seq, Ack: ack, AckBits: bits}); err != nil {
		x.t.Fatal(err)
	}
	for _, m := range msgs {
		if err := rtype.Add(&b, m); err != nil {
			x.t.Fatalf("add %T: %v", m, err)
		}
	}
	return bytes.Clone(b.Bytes())
}

// connect runs the handshake of §4: Hello, then a Welcome with the next id.
func (x *exchange) connect(c *endpoint) {
	x.t.Helper()
	hello := x.send(c, x.server, rtype.AppendHello(nil), wantDatagram{"handshake", true, []string{"Hello"}})
	if t, _, err := rtype.ParseHandshake(hello); err != nil || t != rtype.HandshakeHello {
		x.t.Fatalf("server got %v, %v instead of Hello", t, err)
	}
	x.nextID++
	welcome := x.send(x.server, c, rtype.AppendWelcome(nil, x.nextID), wantDatagram{"handshake", true, []string{"Welcome"}})
	_, id, err := rtype.ParseHandshake(welcome)
	if err != nil {
		x.t.Fatal(err)
	}
	c.id = id
}

func pos(px float64) rtype.Pos16 { return rtype.PosFromPixels(px) }

// runLoopback returns the session of playLoopback, played once for all
// the tests that read it: real UDP is exercised once.
func runLoopback(t *testing.T) *exchange {
	t.Helper()
	loopbackRun.mu.Lock()
	defer loopbackRun.mu.Unlock()
	if loopbackRun.x == nil {
		loopbackRun.x = playLoopback(t)
	}
	return loopbackRun.x
}

var loopbackRun struct {
	mu sync.Mutex
	x  *exchange
}

// playLoopback plays a scripted session between a server and three clients
// over real loopback sockets: the handshake (§4), every message of the
// catalog (§6 to §8) in both directions, a 47-state Snapshot, unknown types,
// malformed datagrams and messages, a duplicate and a lost packet.
func playLoopback(t *testing.T) *exchange {
	x := &exchange{t: t, server: listen(t), ports: map[netip.AddrPort]uint16{}}
	srv := x.server
	a, b, c := listen(t), listen(t), listen(t)
	ok := func(types ...string) wantDatagram { return wantDatagram{"packet", true, types} }
	bad := wantDatagram{"packet", false, nil}

	x.connect(a)
	// srv holds the server's state for the client it talks to.
	srv.id = a.id

	// Client a plays.
	x.send(a, srv, x.packet(a, rtype.Input{InputSequence: 1, ClientTick: 1, Actions: rtype.ActionUp | rtype.ActionShoot}, rtype.Ping{Timestamp: 1000}), ok("Input", "Ping"))
	x.send(srv, a, x.packet(srv,
		rtype.CreateEntity{ServerTick: 3, NetworkID: 1, EntityType: rtype.ArchetypePlayerBlue, X: pos(150), Y: pos(150)},
		rtype.CreateEntity{ServerTick: 3, NetworkID: 1005, EntityType: rtype.ArchetypeEnemyBidos, X: pos(2000), Y: pos(300), Rotation: rtype.RotFromRadians(3.141592653589793)},
		rtype.Pong{Timestamp: 1000}), ok("CreateEntity", "CreateEntity", "Pong"))
	x.send(a, srv, x.packet(a, rtype.QueryEntity{NetworkID: 1005}, rtype.Input{InputSequence: 2, ClientTick: 2, Actions: rtype.ActionDown | rtype.ActionRight}), ok("QueryEntity", "Input"))
	x.send(srv, a, x.packet(srv,
		rtype.Snapshot{ServerTick: 6, States: []rtype.EntityState{
			{NetworkID: 1, EntityType: uint8(rtype.ArchetypePlayerBlue & 0xff), X: pos(150.25), Y: pos(150), Rotation: rtype.RotFromRadians(1.5707963267948966)},
			{NetworkID: 1005, EntityType: uint8(rtype.ArchetypeEnemyBidos & 0xff), X: pos(1990.5), Y: pos(300), Rotation: 0},
			{NetworkID: 7, EntityType: uint8(rtype.ArchetypeBullet & 0xff), X: pos(-10), Y: pos(8191.75), Rotation: 65535},
		}},
		rtype.DestroyEntity{ServerTick: 6, NetworkID: 1005, Reason: rtype.DestroyGameplay}), ok("Snapshot", "DestroyEntity"))
	// The largest Snapshot: 47 states, a 543-byte datagram (§8.1, §2.2).
	var states []rtype.EntityState
	for i := range rtype.MaxSnapshotStates {
		states = append(states, rtype.EntityState{NetworkID: uint32(100 + i), EntityType: 0xff, X: pos(float64(10 * i)), Y: pos(float64(-5 * i)), Rotation: rtype.Rot16(i * 1000)})
	}
	big := x.packet(srv, rtype.Snapshot{ServerTick: 9, States: states})
	if len(big) != 543 {
		t.Fatalf("47-state packet is %d bytes, want 543", len(big))
	}
	x.send(srv, a, big, ok("Snapshot"))
	// a misses the next packet: its acks must show it.
	a.deaf = true
	x.send(srv, a, x.packet(srv, rtype.Pong{Timestamp: 2000}), ok("Pong"))
	a.deaf = false
	// A packet whose last message header is cut (§5.3).
	cut := x.packet(a, rtype.Ping{Timestamp: 3000})
	x.send(a, srv, append(cut, 0x00, 0x02), bad)
	// A packet with a message that breaks its own rule, an unknown type and a
	// good one: only the bad message is dropped (§6, §8.3).
	withBad := x.packet(srv, rtype.Pong{Timestamp: 3000})
	withBad = append(withBad, 0x00, 0x85, 0x00, 0x09, 0, 0, 0, 12, 0, 0, 0, 1, 7) // DestroyEntity reason 7
	withBad = append(withBad, 0x00, 0x99, 0x00, 0x02, 0xab, 0xcd)                 // unknown type
	x.send(srv, a, withBad, ok("Pong", "DestroyEntity", "unknown"))
	x.send(a, srv, x.packet(a, rtype.RawMessage{Type: 0x42, Payload: []byte{1, 2, 3}}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), ok("unknown", "Disconnect"))

	// Client b: a Hello with a bad version is still a handshake datagram,
	// and dropped (§4.2); then a real connection.
	badHello := rtype.AppendHello(nil)
	badHello[4] = 2
	x.send(b, srv, badHello, wantDatagram{"handshake", false, nil})
	x.connect(b)
	srv.id, srv.seq, srv.window = b.id, 0, rtype.SeqWindow{}
	empty := x.packet(b)
	x.send(b, srv, empty, ok())
	// The same packet again: a duplicate the server drops (§5.2), though
	// its format is valid.
	x.send(b, srv, empty, bad)
	x.send(srv, b, x.packet(srv, rtype.DestroyEntity{ServerTick: 12, NetworkID: 1, Reason: rtype.DestroyPlayerDisconnected}), ok("DestroyEntity"))
	// An oversized datagram (§2.2) and one shorter than a header (§5.4).
	over := x.packet(srv, rtype.RawMessage{Type: 0x90, Payload: make([]byte, 528)})
	over = append(over[:len(over):len(over)], make([]byte, 4)...) // one more empty message: 552 bytes
	binary.BigEndian.PutUint16(over[len(over)-4:], 0x91)
	x.send(srv, b, over, bad)
	x.send(b, srv, []byte{0, 0, 0, 2, 0, 0}, bad)

	// Client c: Hello, Rejected (§4.4).
	x.send(c, srv, rtype.AppendHello(nil), wantDatagram{"handshake", true, []string{"Hello"}})
	x.send(srv, c, rtype.AppendRejected(nil), wantDatagram{"handshake", true, []string{"Rejected"}})
	return x
}
