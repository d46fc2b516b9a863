package session

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// FuzzServer feeds datagrams from random addresses into a Server while a
// real client plays on it. The input is a list of records: one byte picks
// the sender among 32 addresses, one byte gives the datagram's length, the
// datagram follows. It checks that nothing panics, that nothing answers a
// datagram that is not a valid Hello or a valid packet of the sender's own
// connection (§12), or of its place in the waiting queue, that every
// datagram sent is at most 548 bytes (§2.2) and goes to the sender, that
// every table stays under its cap, and that the real client stays
// connected and has its inputs accepted.
func FuzzServer(f *testing.F) {
	f.Add([]byte{0, 6, 'R', 'T', 'Y', 'P', 1, 1})
	f.Add(append([]byte{1, 6}, hello()...))
	f.Add(append(append([]byte{2, 6}, hello()...), append([]byte{2, 20}, packet(f, rtype.PacketHeader{ConnectionID: 2, Sequence: 1}, rtype.Ping{Timestamp: 9})...)...))
	f.Add(append([]byte{3, 25}, packet(f, rtype.PacketHeader{ConnectionID: 1, Sequence: 9}, rtype.Input{InputSequence: 1})...))
	f.Add([]byte{4, 200, 0, 0, 0, 1})
	answer := packet(f, rtype.PacketHeader{ConnectionID: 1, Sequence: 1}, rtype.Ping{Timestamp: 3})
	f.Add(append(append([]byte{5, 6}, hello()...), append([]byte{0x85, byte(len(answer))}, answer...)...))
	f.Fuzz(fuzzServer)
}

func fuzzServer(t *testing.T, data []byte) {
	{
		cfg := ServerConfig{EventQueue: 64}
		var sent []wire
		s := NewServer(cfg, func(to netip.AddrPort, b []byte) { sent = append(sent, wire{to, append([]byte(nil), b...)}) })
		realAddr := netip.MustParseAddrPort("192.0.2.200:7000")
		var up [][]byte
		c := NewClient(serverAddr, ClientConfig{}, func(_ netip.AddrPort, b []byte) { up = append(up, append([]byte(nil), b...)) })
		now := t0
		var live []uint32 // the game's entities, oldest first
		step := func() {
			now = now.Add(time.Second / 60)
			c.Update(now)
			_ = c.SendInput(rtype.ActionRight, now)
			for _, b := range up {
				s.Receive(b, realAddr, now)
			}
			up = nil
			live = append(live, s.Spawn(rtype.ArchetypeBullet, 0, 0, 0))
			if len(live) > 50 {
				if err := s.Destroy(live[0], rtype.DestroyGameplay); err != nil {
					t.Fatal(err)
				}
				live = live[1:]
			}
			s.Tick(now)
			for _, w := range sent {
				if len(w.b) > rtype.MaxDatagramSize {
					t.Fatalf("sent %d bytes", len(w.b))
				}
				if w.to == realAddr {
					c.Receive(w.b, serverAddr, now)
				}
			}
			sent = nil
			for range c.Events() { // the game reads them every frame
			}
		}
		step()
		step()
		events(s, 0)
		inputs, records := 0, 0
		welcomed := map[netip.AddrPort]uint32{} // the id each address was last sent
		for rest := data; len(rest) >= 2; {
			from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, rest[0] % 32}), 4000)
			n := min(int(rest[1]), len(rest)-2)
			d := rest[2 : 2+n]
			if id := welcomed[from]; rest[0]&0x80 != 0 && id != 0 && len(d) >= 4 {
				// The sender answers its Welcome: the fuzzer cannot
				// guess an id, but it reaches every table's bound this
				// way (players, waiting queue, closed connections).
				d = binary.BigEndian.AppendUint32(nil, id)
				d = append(d, rest[6:2+n]...)
			}
			rest = rest[2+n:]
			records++

			// What may be answered, judged before the datagram changes
			// anything.
			valid := isHello(d)
			if p, err := rtype.ParsePacket(d); err == nil {
				id := p.Header().ConnectionID
				cn, w := s.byAddr(from), s.waiterByAddr(from)
				switch {
				case cn != nil || w != nil:
					valid = cn != nil && cn.id == id || w != nil && w.id == id
				case s.cookies.verify(id, from, now):
					valid = true // a first packet (§4.3, §12)
				}
			}
			s.Receive(d, from, now)
			for _, w := range sent {
				if t, id, err := rtype.ParseHandshake(w.b); err == nil && t == rtype.HandshakeWelcome {
					welcomed[from] = id
				}
				if !valid {
					t.Fatalf("answered invalid datagram % x from %v with % x", d, from, w.b)
				}
				if w.to != from || len(w.b) > rtype.MaxDatagramSize {
					t.Fatalf("answer of %d bytes to %v", len(w.b), w.to)
				}
			}
			sent = nil
			step()
			for e := range s.Events() {
				if e.Kind == EventInput && e.Conn == c.ConnectionID() {
					inputs++
				}
			}
			if s.NumPlayers() > s.cfg.MaxPlayers || s.nConns > len(s.conns) || s.nWaiting > len(s.waiting) || len(s.waiting) != s.cfg.MaxPlayers || len(s.closed.e) != closedSize {
				t.Fatalf("%d connections, %d waiting, %d closed", s.nConns, s.nWaiting, len(s.closed.e))
			}
			if err := s.world.check(); err != nil {
				t.Fatal(err)
			}
			if len(s.events.buf) != cfg.EventQueue+2*s.cfg.MaxPlayers || c.NumEntities() > DefaultMaxEntities {
				t.Fatalf("queue %d, client entities %d", len(s.events.buf), c.NumEntities())
			}
		}
		if !c.State().Connected() {
			t.Fatalf("the real client is %v (%v)", c.State(), c.CloseReason())
		}
		if ok := isOpen(s, c.ConnectionID()); !ok {
			t.Fatalf("the real client's connection is gone")
		}
		if inputs != records {
			t.Fatalf("%d of the real client's %d inputs accepted", inputs, records)
		}
	}
}
