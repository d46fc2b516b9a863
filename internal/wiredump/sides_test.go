package wiredump

import (
	"fmt"
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §3: when full, Sides forgets the address least recently welcomed or
// heard from, not connected first: a Welcome again moves an address to the
// back, a flood of Welcomes to new addresses leaves connected clients, and
// a kept packet of a connected client moves it to the back of those.
func TestSidesForgetLeastRecent(t *testing.T) {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	addr := func(i int) netip.AddrPort {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), 40000)
	}
	welcome := func(s *Sides, i int) { s.Decode(addr(i), false, rtype.AppendWelcome(nil, uint32(i))) }
	seq := map[int]uint32{}
	packet := func(s *Sides, i int) {
		seq[i]++
		if d := s.Decode(addr(i), true, sidesPacket(uint32(i), seq[i], sidesPing)); d.Err != nil {
			t.Fatalf("packet of %d: %v", i, d.Err)
		}
	}
	known := func(s *Sides, list ...int) string {
		var out []int
		for _, i := range list {
			if k, _, _, _ := s.Classify(addr(i), server); k == Packet {
				out = append(out, i)
			}
		}
		return fmt.Sprint(out)
	}
	t.Run("a Welcome again moves to the back", func(t *testing.T) {
		s := newSidesLimit(rtype.DefaultPort, 2)
		welcome(s, 1)
		welcome(s, 2)
		welcome(s, 1)
		welcome(s, 3)
		if got := known(s, 1, 2, 3); got != "[1 3]" {
			t.Errorf("remembered %s, want [1 3]", got)
		}
	})
	t.Run("a Welcome flood keeps the connected", func(t *testing.T) {
		s := newSidesLimit(rtype.DefaultPort, 3)
		welcome(s, 1)
		packet(s, 1)
		welcome(s, 2)
		packet(s, 2)
		for i := 100; i < 1100; i++ {
			welcome(s, i)
		}
		if got := known(s, 1, 2, 1098, 1099); got != "[1 2 1099]" {
			t.Errorf("remembered %s, want [1 2 1099]", got)
		}
		if len(s.conns) != 3 || s.fresh.n+s.held.n != 3 {
			t.Errorf("%d remembered, %d listed, want 3", len(s.conns), s.fresh.n+s.held.n)
		}
	})
	t.Run("all connected: the least recently heard from goes", func(t *testing.T) {
		s := newSidesLimit(rtype.DefaultPort, 3)
		for i := 1; i <= 3; i++ {
			welcome(s, i)
			packet(s, i)
		}
		packet(s, 1)
		welcome(s, 4)
		if got := known(s, 1, 2, 3, 4); got != "[1 3 4]" {
			t.Errorf("remembered %s, want [1 3 4]", got)
		}
	})
	t.Run("a Disconnect makes the address the first to go", func(t *testing.T) {
		s := newSidesLimit(rtype.DefaultPort, 2)
		welcome(s, 1)
		packet(s, 1)
		welcome(s, 2)
		packet(s, 2)
		seq[1]++
		s.Decode(addr(1), true, sidesPacket(1, seq[1], sidesDisconnect))
		welcome(s, 3)
		if s.ConnectionID(addr(1)) != 0 || s.ConnectionID(addr(2)) != 2 || s.ConnectionID(addr(3)) != 3 {
			t.Errorf("ids %d %d %d, want 0 2 3", s.ConnectionID(addr(1)), s.ConnectionID(addr(2)), s.ConnectionID(addr(3)))
		}
	})
}

// §5.4: once the Welcome to a client was seen, a packet between it and the
// server with another connectionId is dropped (Check takes no direction:
// the server and the client both drop it); the error names both ids. A packet dropped already keeps its reason, and a
// client never welcomed has nothing to compare with.
func TestSidesCheckConnectionID(t *testing.T) {
	s := NewSides(rtype.DefaultPort)
	client := netip.MustParseAddrPort("10.0.0.2:1")
	stranger := netip.MustParseAddrPort("10.0.0.3:1")
	w := Decode(Handshake, rtype.AppendWelcome(nil, 5))
	s.Observe(client, false, &w)
	packet := func(id uint32) []byte {
		b := append([]byte(nil), specInput...)
		b[3] = byte(id)
		return b
	}
	tests := []struct {
		name    string
		client  netip.AddrPort
		b       []byte
		wantErr string // "" when kept
	}{
		{"the Welcome's id", client, packet(5), ""},
		{"another id", client, packet(7), "connection id 7 differs from the Welcome's 5 (§5.4)"},
		{"id 0 keeps its reason", client, packet(0), "rtype: connection id is 0"},
		{"framing keeps its reason", client, packet(7)[:18], "rtype: truncated message header at byte 16"},
		{"no Welcome seen", stranger, packet(7), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decode(Packet, tt.b)
			s.Check(tt.client, &d)
			got := ""
			if d.Err != nil {
				v, _ := d.Object(1, nil).Get("error")
				got, _ = v.(string)
				if d.Messages != nil {
					t.Errorf("a dropped packet keeps %d messages", len(d.Messages))
				}
			}
			if got != tt.wantErr {
				t.Errorf("error %q, want %q", got, tt.wantErr)
			}
		})
	}
}

// sidesStep is one datagram of a session through Sides.Decode, with the
// kind and drop key (DropKey, "" when kept) it must get.
type sidesStep struct {
	name     string
	toServer bool
	b        []byte
	kind     Kind
	drop     string
}

// sidesPacket is a connected packet of connection id, sequence seq, with
// the framed messages msgs.
func sidesPacket(id, seq uint32, msgs ...[]byte) []byte {
	b := []byte{0, 0, 0, byte(id), 0, 0, 0, byte(seq), 0, 0, 0, 0, 0, 0, 0, 0}
	for _, m := range msgs {
		b = append(b, m...)
	}
	return b
}

var (
	sidesPing       = []byte{0, 3, 0, 4, 0, 0, 0, 9}
	sidesDisconnect = []byte{0, 4, 0, 1, 1}
)

// §3, §4.2, §4.3, §5.2, §5.4, §7.3: the phases of a client address through
// whole sessions, as the server and the client read each datagram.
func TestSidesPhases(t *testing.T) {
	hello, rejected := rtype.AppendHello(nil), append(rtype.AppendHello(nil)[:5], 3)
	welcome := func(id uint32) []byte { return rtype.AppendWelcome(nil, id) }
	tests := []struct {
		name  string
		steps []sidesStep
	}{
		{"§7.3 the address re-used after a Disconnect", []sidesStep{
			{"Hello", true, hello, Handshake, ""},
			{"Welcome 5", false, welcome(5), Handshake, ""},
			{"packet of 5", true, sidesPacket(5, 1, sidesPing), Packet, ""},
			{"Hello once connected (§3)", true, hello, Packet, "hello-on-connection"},
			{"Disconnect", true, sidesPacket(5, 2, sidesDisconnect), Packet, ""},
			{"Hello again", true, hello, Handshake, ""},
			{"Welcome 7", false, welcome(7), Handshake, ""},
			{"packet of 7 to the server", true, sidesPacket(7, 1, sidesPing), Packet, ""},
			{"packet of 7 to the client", false, sidesPacket(7, 1), Packet, ""},
			{"packet of 5 now differs", true, sidesPacket(5, 3), Packet, "connection-id-differs"},
		}},
		{"§4.2 a lost Welcome, then another id", []sidesStep{
			{"Hello", true, hello, Handshake, ""},
			{"Welcome 5, lost", false, welcome(5), Handshake, ""},
			{"server packet of 5", false, sidesPacket(5, 1), Packet, ""},
			{"Hello repeated", true, hello, Handshake, ""},
			{"Welcome 6", false, welcome(6), Handshake, ""},
			{"Hello repeated again", true, hello, Handshake, ""},
			{"Rejected", false, rejected, Handshake, ""},
			{"short packet", true, []byte{1, 2, 3}, Packet, "short-packet"},
			{"server packet of 6 starts a new window", false, sidesPacket(6, 1), Packet, ""},
			{"client packet of 6", true, sidesPacket(6, 1), Packet, ""},
			{"Welcome 8 once connected is a short packet", false, welcome(8), Packet, "short-packet"},
			{"packet of 6 kept", true, sidesPacket(6, 2), Packet, ""},
		}},
		{"§4.2, §13 two Welcomes: the client takes the first", []sidesStep{
			{"Hello", true, hello, Handshake, ""},
			{"Hello repeated", true, hello, Handshake, ""},
			{"Welcome 5", false, welcome(5), Handshake, ""},
			{"Welcome 6", false, welcome(6), Handshake, ""},
			{"client packet of 5", true, sidesPacket(5, 1, sidesPing), Packet, ""},
			{"server packet of 5", false, sidesPacket(5, 1), Packet, ""},
			{"client packet of 5 again", true, sidesPacket(5, 2, sidesPing), Packet, ""},
			{"server packet of 6, the id not taken", false, sidesPacket(6, 1), Packet, "connection-id-differs"},
			{"client packet of 6", true, sidesPacket(6, 3), Packet, "connection-id-differs"},
			{"Hello once connected (§3)", true, hello, Packet, "hello-on-connection"},
		}},
		{"§5.2, §5.4 while welcomed, a window per id", []sidesStep{
			{"Welcome 5", false, welcome(5), Handshake, ""},
			{"Welcome 6", false, welcome(6), Handshake, ""},
			{"server packet of 6", false, sidesPacket(6, 1), Packet, ""},
			{"server packet of 5, its own window", false, sidesPacket(5, 1), Packet, ""},
			{"server packet of 5 again", false, sidesPacket(5, 1), Packet, "duplicate-sequence"},
			{"server packet of 7, never welcomed", false, sidesPacket(7, 1), Packet, "connection-id-differs"},
			{"client packet of 7", true, sidesPacket(7, 1), Packet, "connection-id-differs"},
			{"Hello, still welcomed", true, hello, Handshake, ""},
			{"client packet of 5", true, sidesPacket(5, 1), Packet, ""},
			{"server packet of 5 again, the window kept", false, sidesPacket(5, 1), Packet, "duplicate-sequence"},
			{"server packet of 5, next", false, sidesPacket(5, 2), Packet, ""},
		}},
		{"§13 the last 4 ids welcomed are remembered", []sidesStep{
			{"Welcome 1", false, welcome(1), Handshake, ""},
			{"Welcome 2", false, welcome(2), Handshake, ""},
			{"Welcome 3", false, welcome(3), Handshake, ""},
			{"Welcome 4", false, welcome(4), Handshake, ""},
			{"Welcome 2 again", false, welcome(2), Handshake, ""},
			{"Welcome 5", false, welcome(5), Handshake, ""},
			{"client packet of 1, forgotten", true, sidesPacket(1, 1), Packet, "connection-id-differs"},
			{"client packet of 2", true, sidesPacket(2, 1), Packet, ""},
			{"client packet of 5", true, sidesPacket(5, 2), Packet, "connection-id-differs"},
		}},
		{"§7.3 the server's packets after the client's Disconnect", []sidesStep{
			{"Welcome 5", false, welcome(5), Handshake, ""},
			{"packet of 5", true, sidesPacket(5, 1, sidesPing), Packet, ""},
			{"Disconnect", true, sidesPacket(5, 2, sidesDisconnect), Packet, ""},
			{"server packet on its way", false, sidesPacket(5, 1), Packet, "closed"},
			{"server packet of another id", false, sidesPacket(6, 2), Packet, "closed"},
			{"a broken one keeps its reason", false, sidesPacket(5, 3, []byte{0, 3}), Packet, "truncated-message-header"},
			{"short", false, []byte{1, 2, 3}, Packet, "short-packet"},
			{"the Disconnect repeated reads as the server does", true, sidesPacket(5, 3, sidesDisconnect), Handshake, "bad-magic"},
			{"Hello", true, hello, Handshake, ""},
			{"Welcome 7", false, welcome(7), Handshake, ""},
			{"server packet of 5 now differs", false, sidesPacket(5, 4), Packet, "connection-id-differs"},
			{"server packet of 7", false, sidesPacket(7, 1), Packet, ""},
		}},
		{"§5.2 the window of each direction", []sidesStep{
			{"Welcome 1", false, welcome(1), Handshake, ""},
			{"client 3", true, sidesPacket(1, 3), Packet, ""},
			{"client 3 again", true, sidesPacket(1, 3), Packet, "duplicate-sequence"},
			{"server 3, its own window", false, sidesPacket(1, 3), Packet, ""},
			{"client 2, out of order", true, sidesPacket(1, 2), Packet, ""},
			{"client 2 again", true, sidesPacket(1, 2), Packet, "duplicate-sequence"},
			{"client 40", true, sidesPacket(1, 40), Packet, ""},
			{"client 7, too old", true, sidesPacket(1, 7), Packet, "sequence-too-old"},
			{"a dropped Disconnect keeps the connection", true, sidesPacket(1, 40, sidesDisconnect), Packet, "duplicate-sequence"},
			{"Hello still connected (§3)", true, hello, Packet, "hello-on-connection"},
		}},
		{"§5.4 a dropped Disconnect keeps the connection", []sidesStep{
			{"Welcome 2", false, welcome(2), Handshake, ""},
			{"Disconnect of another id", true, sidesPacket(3, 1, sidesDisconnect), Packet, "connection-id-differs"},
			{"Hello", true, hello, Handshake, ""},
			{"Disconnect", true, sidesPacket(2, 1, sidesDisconnect), Packet, ""},
			{"Hello after it", true, hello, Handshake, ""},
		}},
	}
	client := netip.MustParseAddrPort("10.0.0.2:1")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSides(rtype.DefaultPort)
			for i, st := range tt.steps {
				d := s.Decode(client, st.toServer, st.b)
				drop := ""
				if d.Err != nil {
					drop = DropKey(d.Err)
				}
				if d.Kind != st.kind || drop != st.drop {
					t.Errorf("step %d, %s: %v dropped %q, want %v dropped %q", i+1, st.name, d.Kind, drop, st.kind, st.drop)
				}
			}
		})
	}
}

// §3, §5.4, §5.2: Peek reads a datagram as Decode would, takes no
// transition and leaves the window of sequences as it was.
func TestSidesPeek(t *testing.T) {
	s := NewSides(rtype.DefaultPort)
	client := netip.MustParseAddrPort("10.0.0.2:1")
	packet := func(id, seq uint32) []byte {
		b, err := rtype.PacketHeader{ConnectionID: id, Sequence: seq}.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if d := s.Peek(client, rtype.AppendWelcome(nil, 5)); d.Kind != Handshake || d.Err != nil || d.ConnectionID != 5 {
		t.Fatalf("a Welcome in the handshake phase: %v %v id %d", d.Kind, d.Err, d.ConnectionID)
	}
	if s.ConnectionID(client) != 0 {
		t.Fatal("Peek took the Welcome's transition")
	}
	d := Decode(Handshake, rtype.AppendWelcome(nil, 5))
	s.Observe(client, false, &d)
	if d := s.Peek(client, rtype.AppendWelcome(nil, 6)); d.Kind != Handshake || d.Err != nil || s.ConnectionID(client) != 5 {
		t.Fatalf("a second Welcome while welcomed: %v %v, id now %d", d.Kind, d.Err, s.ConnectionID(client))
	}
	for range 2 {
		if d := s.Peek(client, packet(5, 1)); d.Kind != Packet || d.Err != nil || d.Welcomed != 5 {
			t.Fatalf("a packet of the connection: %v %v welcomed %d", d.Kind, d.Err, d.Welcomed)
		}
	}
	if d := s.Peek(client, packet(6, 2)); d.Err != ErrConnectionIDDiffers {
		t.Fatalf("a packet of another id: %v", d.Err)
	}
	if d := s.Decode(client, true, packet(5, 1)); d.Err != nil {
		t.Fatalf("the packet Peek left in the window: %v", d.Err)
	}
	if d := s.Peek(client, rtype.AppendWelcome(nil, 7)); d.Kind != Packet || d.Err == nil {
		t.Fatalf("a Welcome once connected: %v %v, want an invalid packet", d.Kind, d.Err)
	}
}

// §3: Forget leaves no trace of a client: its next datagrams are handshake
// datagrams, no id is remembered, a packet of the old id is no longer
// checked, and a new Welcome starts fresh windows; other clients keep theirs.
func TestSidesForget(t *testing.T) {
	s := newSidesLimit(rtype.DefaultPort, 2)
	a := netip.MustParseAddrPort("10.0.0.2:1")
	b := netip.MustParseAddrPort("10.0.0.3:1")
	c := netip.MustParseAddrPort("10.0.0.4:1")
	s.Decode(a, false, rtype.AppendWelcome(nil, 5))
	s.Decode(a, true, sidesPacket(5, 1, sidesPing))
	s.Decode(b, false, rtype.AppendWelcome(nil, 6))
	s.Forget(a)
	s.Forget(c) // never seen: nothing to do
	if k, _, _, _ := s.Classify(a, netip.MustParseAddrPort("10.0.0.1:4242")); k != Handshake {
		t.Errorf("a forgotten reads %v, want handshake", k)
	}
	if id := s.ConnectionID(a); id != 0 {
		t.Errorf("a forgotten keeps id %d", id)
	}
	if d := s.Peek(a, sidesPacket(9, 1)); d.Kind != Handshake {
		t.Errorf("a packet from a forgotten client reads %v, want handshake", d.Kind)
	}
	s.Decode(a, false, rtype.AppendWelcome(nil, 5))
	if d := s.Decode(a, true, sidesPacket(5, 1, sidesPing)); d.Err != nil {
		t.Errorf("sequence 1 after the new Welcome: %v, want a fresh window", d.Err)
	}
	// a took the place it freed: c does not push b out.
	s.Forget(a)
	s.Decode(c, false, rtype.AppendWelcome(nil, 7))
	if s.ConnectionID(b) != 6 || s.ConnectionID(c) != 7 || len(s.conns) != 2 || s.fresh.n+s.held.n != 2 {
		t.Errorf("b id %d, c id %d, %d remembered (%d listed), want 6, 7, 2",
			s.ConnectionID(b), s.ConnectionID(c), len(s.conns), s.fresh.n+s.held.n)
	}
}

// Following a known client costs no allocation: a Welcome again, packets
// of the connection both ways, a move to the back of the list.
func TestSidesKnownClientAllocs(t *testing.T) {
	s := NewSides(rtype.DefaultPort)
	a := netip.MustParseAddrPort("10.0.0.2:1")
	b := netip.MustParseAddrPort("10.0.0.3:1")
	welcome := rtype.AppendWelcome(nil, 5)
	s.Decode(a, false, welcome)
	s.Decode(b, false, rtype.AppendWelcome(nil, 6))
	s.Decode(b, true, sidesPacket(6, 1))
	pa, pb := sidesPacket(5, 0), sidesPacket(6, 0)
	var seq byte
	n := testing.AllocsPerRun(100, func() {
		seq++
		pa[7], pb[7] = seq, seq+1
		s.Decode(a, false, welcome)
		s.Decode(a, false, pa)
		s.Decode(b, true, pb)
	})
	if n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
	if s.ConnectionID(a) != 5 || s.ConnectionID(b) != 6 {
		t.Errorf("ids %d and %d, want 5 and 6", s.ConnectionID(a), s.ConnectionID(b))
	}
}
