package session

import (
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

func withByte(b []byte, i int, v byte) []byte {
	b = append([]byte(nil), b...)
	b[i] = v
	return b
}

// §4.2 rule 1: an invalid Hello is dropped silently and opens nothing.
func TestServer_4_2_DropsInvalidHello(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		want DropReason
	}{
		{"empty", nil, DropShortHandshake},
		{"5 bytes", hello()[:5], DropShortHandshake},
		{"bad magic", withByte(hello(), 0, 'X'), DropBadMagic},
		{"version 2", withByte(hello(), 4, 2), DropBadVersion},
		{"version 0", withByte(hello(), 4, 0), DropBadVersion},
		{"type 0", withByte(hello(), 5, 0), DropBadHandshakeType},
		{"type 4", withByte(hello(), 5, 4), DropBadHandshakeType},
		{"hello with an extra byte", append(hello(), 0), DropHandshakeSize},
		{"welcome", rtype.AppendWelcome(nil, 7), DropUnexpectedHandshake},
		{"rejected", rtype.AppendRejected(nil), DropUnexpectedHandshake},
		{"549 bytes", append(hello(), make([]byte, 543)...), DropTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{})
			s.Receive(tt.b, addrA, t0)
			if out := cp.take(); len(out) != 0 {
				t.Errorf("answered % x", out[0].b)
			}
			if s.NumPlayers() != 0 {
				t.Errorf("NumPlayers = %d, want 0", s.NumPlayers())
			}
			if got := s.Stats().Drops.Count(tt.want); got != 1 {
				t.Errorf("Drops.Count(%v) = %d, want 1 (drops %v)", tt.want, got, s.Stats().Drops)
			}
			if ev := events(s, 0); len(ev) != 0 {
				t.Errorf("events %v", ev)
			}
		})
	}
}

// §4.2 rule 2, §4.3: a valid Hello is answered with a 10-byte Welcome
// whose id is never 0; the connection, bound to the sender, opens with its
// first connected packet (§12), and the players join in the lowest free
// slots.
func TestServer_4_2_WelcomesValidHello(t *testing.T) {
	s, cp := newServer(ServerConfig{})
	addrs := []netip.AddrPort{addrA, addrB, addrC}
	// joined is a join event with the address its connection is bound to.
	type joined struct {
		Kind ServerEventKind
		Conn uint32
		Addr netip.AddrPort
		Slot uint8
	}
	var want []joined
	for i, a := range addrs {
		s.Receive(hello(), a, t0)
		out := cp.to(a)
		if len(out) != 1 || len(out[0].b) != rtype.WelcomeSize {
			t.Fatalf("Hello from %v answered %v, want one 10-byte Welcome", a, out)
		}
		typ, id, err := rtype.ParseHandshake(out[0].b)
		if err != nil || typ != rtype.HandshakeWelcome || id == 0 {
			t.Fatalf("Hello from %v answered % x (%v)", a, out[0].b, err)
		}
		if s.NumPlayers() != i {
			t.Errorf("a Hello opened a connection: %d players", s.NumPlayers())
		}
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), a, t0)
		want = append(want, joined{EventPlayerJoined, id, a, uint8(i)})
	}
	var got []joined
	for _, e := range events(s, EventPlayerJoined) {
		p, _ := s.ConnStats(e.Conn)
		got = append(got, joined{e.Kind, e.Conn, p.Addr, e.Slot})
	}
	if d := cmp.Diff(want, got, cmp.Comparer(func(a, b netip.AddrPort) bool { return a == b })); d != "" {
		t.Errorf("join events (-want +got):\n%s", d)
	}
	// Bound to the address: B's packet with A's id is dropped (§5.4).
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: want[0].Conn, Sequence: 2}, rtype.Ping{Timestamp: 1}), addrB, t0)
	if out := cp.take(); len(out) != 0 {
		t.Errorf("answered a packet from the wrong address")
	}
}

// §13.1: a valid Hello to a server whose open connections fill MaxPlayers
// is answered with Rejected, or dropped silently when Rejected is switched
// off; invalid ones never.
func TestServer_13_1_RejectsWhenFull(t *testing.T) {
	for _, disabled := range []bool{false, true} {
		cfg := ServerConfig{MaxPlayers: 2}
		if disabled {
			cfg.Rejected = Off
		}
		s, cp := newServer(cfg)
		for _, a := range []netip.AddrPort{addrA, addrB} {
			connect(t, s, cp, a, t0)
		}
		s.Receive(withByte(hello(), 4, 9), addrC, t0)
		if out := cp.take(); len(out) != 0 {
			t.Errorf("disabled=%v: answered an invalid Hello to a full server", disabled)
		}
		s.Receive(hello(), addrC, t0)
		out := cp.take()
		switch {
		case disabled && (len(out) != 0 || s.Stats().Drops.Count(DropServerFull) != 1):
			t.Errorf("disabled: sent %d datagrams, drops %v", len(out), s.Stats().Drops)
		case !disabled && (len(out) != 1 || string(out[0].b) != string(rtype.AppendRejected(nil)) || out[0].to != addrC):
			t.Errorf("enabled: sent %v, want one Rejected to %v", out, addrC)
		}
		if s.NumPlayers() != 2 || s.NumWaiting() != 0 {
			t.Errorf("NumPlayers = %d, NumWaiting = %d", s.NumPlayers(), s.NumWaiting())
		}
	}
}

// §12: the server keeps no state per Hello, so no flood of Hellos can
// fill a table: 10,000 of them, from as many addresses, leave the server
// as it was, and a Welcome sent before them still opens its connection.
func TestServer_12_HellosLeaveNoState(t *testing.T) {
	s, cp := newServer(ServerConfig{MaxPlayers: 1})
	id := join(t, s, cp, addrA, t0)
	events := s.events.n
	for i, a := range spoofed(10000) {
		s.Receive(hello(), a, t0.Add(time.Duration(i)*100*time.Microsecond))
	}
	if got := len(cp.take()); got != 10000 || s.Stats().Welcomes != 10001 {
		t.Fatalf("%d answers to 10000 Hellos, Welcomes = %d", got, s.Stats().Welcomes)
	}
	if s.nConns != 0 || s.nWaiting != 0 || liveClosed(&s.closed, t0) != 0 || s.events.n != events {
		t.Errorf("Hellos left state: %d connections, %d waiting, %d closed, %d events", s.nConns, s.nWaiting, liveClosed(&s.closed, t0), s.events.n)
	}
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, t0.Add(time.Second))
	if ok := isOpen(s, id); !ok {
		t.Errorf("the Welcome sent before the flood no longer opens its connection")
	}
}

// §13.2: a repeated Hello from an address without a connection gets a
// Welcome again, with the same id within a validation window; once the
// connection is open, a Hello from its address is a connected packet too
// short to be one and is dropped (§3, §5.4).
func TestServer_13_2_ResendsLostWelcome(t *testing.T) {
	tests := []struct {
		name       string
		sentPacket bool
		want       int
	}{
		{"not yet open", false, 1},
		{"open", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey})
			id := join(t, s, cp, addrA, t0)
			if tt.sentPacket {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, t0)
			}
			s.Receive(hello(), addrA, t0.Add(time.Second))
			out := cp.take()
			if len(out) != tt.want {
				t.Fatalf("sent %d datagrams, want %d", len(out), tt.want)
			}
			if tt.want == 1 && string(out[0].b) != string(rtype.AppendWelcome(nil, id)) {
				t.Errorf("sent % x, want the same Welcome", out[0].b)
			}
			if tt.sentPacket && s.Stats().Drops.Count(DropHelloOnConnection) != 1 {
				t.Errorf("drops %v, want one HelloOnConnection", s.Stats().Drops)
			}
			if want := map[bool]int{false: 0, true: 1}[tt.sentPacket]; s.NumPlayers() != want {
				t.Errorf("NumPlayers = %d, want %d", s.NumPlayers(), want)
			}
		})
	}
}

// §13.3: a connection silent for InactivityTimeout is closed and the others
// are told its ship is gone (reason 3); a negative timeout never closes.
func TestServer_13_3_InactivityTimeout(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		after   time.Duration
		closed  bool
	}{
		{"default, 9.9 s", 0, 9900 * time.Millisecond, false},
		{"default, 10 s", 0, 10 * time.Second, true},
		{"2 s", 2 * time.Second, 2 * time.Second, true},
		{"off", -1, time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{InactivityTimeout: tt.timeout})
			a := join(t, s, cp, addrA, t0)
			b := join(t, s, cp, addrB, t0)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: a, Sequence: 1}), addrA, t0)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 1}), addrB, t0)
			ship, err := s.SpawnFor(a, rtype.ArchetypePlayerBlue, 150, 150, 0)
			if err != nil {
				t.Fatal(err)
			}
			s.Tick(t0)
			cp.take()
			// B stays active; A is silent.
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: b, Sequence: 2}), addrB, t0.Add(tt.after-time.Millisecond))
			events(s, 0)
			s.Tick(t0.Add(tt.after))
			left := events(s, EventPlayerLeft)
			if got := len(left) == 1 && left[0].Conn == a && left[0].Close == CloseTimeout; got != tt.closed {
				t.Fatalf("closed = %v (events %v), want %v", got, left, tt.closed)
			}
			ds := ofType(t, cp.to(addrB), rtype.TypeDestroyEntity)
			if !tt.closed {
				if len(ds) != 0 {
					t.Errorf("DestroyEntity sent with no timeout")
				}
				return
			}
			if len(ds) != 1 {
				t.Fatalf("B got %d DestroyEntity, want 1", len(ds))
			}
			if d := decodeDestroy(t, ds[0]); d.NetworkID != ship || d.Reason != rtype.DestroyPlayerDisconnected {
				t.Errorf("B got %+v, want ship %d reason 3", d, ship)
			}
		})
	}
}

// §13.2, §4.3, §12: a stateless server cannot tell a repeated Hello from a
// first one, so every valid Hello from an address without a connection is
// answered with exactly one 10-byte Welcome, never more: a flood of 6-byte
// Hellos gets as many Welcomes, each 10 bytes, and no other datagram.
// Within a validation window the id is the same; the id of an earlier
// Welcome keeps working while its window or the next holds.
func TestServer_13_2_WelcomePerHello(t *testing.T) {
	tests := []struct {
		name    string
		hellos  []time.Duration // after t0, the start of a window
		open    time.Duration   // when the first packet, with the first id, arrives
		ids     int             // distinct ids in the Welcomes
		opens   bool
		dropped DropReason
	}{
		{"one Hello", []time.Duration{0}, 100 * time.Millisecond, 1, true, 0},
		{"client resends every second", []time.Duration{0, time.Second, 2 * time.Second}, 2100 * time.Millisecond, 1, true, 0},
		{"100 Hellos in 10 ms", every(0, 100*time.Microsecond, 100), 20 * time.Millisecond, 1, true, 0},
		{"resends across a window", []time.Duration{4 * time.Second, 5 * time.Second, 6 * time.Second}, 6100 * time.Millisecond, 2, true, 0},
		{"first id in the next window", []time.Duration{4900 * time.Millisecond}, 9999 * time.Millisecond, 1, true, 0},
		{"first id two windows later", []time.Duration{4900 * time.Millisecond}, 10 * time.Second, 1, false, DropUnknownConnection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey})
			var first uint32
			seen := map[uint32]bool{}
			for i, at := range tt.hellos {
				s.Receive(hello(), addrA, t0.Add(at))
				out := cp.take()
				if len(out) != 1 || out[0].to != addrA || len(out[0].b) != rtype.WelcomeSize {
					t.Fatalf("Hello %d answered %v, want one 10-byte Welcome", i, out)
				}
				_, id, err := rtype.ParseHandshake(out[0].b)
				if err != nil || id == 0 {
					t.Fatalf("Hello %d answered % x", i, out[0].b)
				}
				if i == 0 {
					first = id
				}
				seen[id] = true
			}
			if st := s.Stats(); len(seen) != tt.ids || st.Welcomes != uint64(len(tt.hellos)) || st.BytesOut != 10*uint64(len(tt.hellos)) {
				t.Errorf("%d ids, Welcomes %d, BytesOut %d; want %d ids, one 10-byte Welcome per Hello", len(seen), st.Welcomes, st.BytesOut, tt.ids)
			}
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: first, Sequence: 1}), addrA, t0.Add(tt.open))
			if ok := isOpen(s, first); ok != tt.opens {
				t.Errorf("first id opens = %v, want %v", ok, tt.opens)
			}
			if !tt.opens && s.Stats().Drops.Count(tt.dropped) != 1 {
				t.Errorf("drops %v, want one %v", s.Stats().Drops, tt.dropped)
			}
		})
	}
}

// every returns n times, step apart, starting at from.
func every(from, step time.Duration, n int) []time.Duration {
	var at []time.Duration
	for i := range n {
		at = append(at, from+time.Duration(i)*step)
	}
	return at
}

// §12, §13.1: a Hello proves nothing about its source address, so a
// welcomed address takes neither a player slot nor an event nor a place
// in the waiting queue: the player joins (EventPlayerJoined, §10) with its
// first valid connected packet. However many spoofed Hellos come first, a
// real client's Hello gets its Welcome, and only open connections make the
// server full.
func TestServer_12_HelloTakesNoSlot(t *testing.T) {
	tests := []struct {
		name      string
		cfg       ServerConfig
		open      int           // players that complete the handshake first
		spoof     int           // Hellos from addresses that never answer
		every     time.Duration // time between two spoofed Hellos
		want      string        // answer to addrA's Hello, sent after them
		wantJoins int           // EventPlayerJoined once addrA sent a packet
	}{
		{"flood of spoofed Hellos", ServerConfig{}, 0, 300, 10 * time.Millisecond, "welcome", 1},
		{"spoofed Hellos at once", ServerConfig{}, 0, 100, 0, "welcome", 1},
		{"3 open, spoofed", ServerConfig{}, 3, 50, time.Millisecond, "welcome", 4},
		{"4 open", ServerConfig{}, 4, 0, 0, "rejected", 4},
		{"4 open, spoofed", ServerConfig{}, 4, 20, 0, "rejected", 4},
		{"4 open, Rejected off", ServerConfig{Rejected: Off}, 4, 0, 0, "", 4},
		{"1 player slot, spoofed", ServerConfig{MaxPlayers: 1}, 0, 70, 0, "welcome", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			now := t0
			for _, a := range spoofed(tt.open) {
				connect(t, s, cp, a, now)
			}
			for i := range tt.spoof {
				now = now.Add(tt.every)
				a := spoofed(tt.open + tt.spoof)[tt.open+i]
				s.Receive(hello(), a, now)
				s.Tick(now)
			}
			if got := len(events(s, EventPlayerJoined)); got != tt.open || s.NumWaiting() != 0 {
				t.Errorf("%d EventPlayerJoined and %d waiting before addrA sent a packet, want %d and 0 (the open players only)", got, s.NumWaiting(), tt.open)
			}
			cp.take()
			s.Receive(hello(), addrA, now)
			ws := cp.to(addrA)
			got := ""
			if len(ws) == 1 {
				typ, id, err := rtype.ParseHandshake(ws[0].b)
				switch {
				case err == nil && typ == rtype.HandshakeWelcome:
					got = "welcome"
					s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, now)
				case err == nil && typ == rtype.HandshakeRejected:
					got = "rejected"
				default:
					t.Fatalf("answered % x", ws[0].b)
				}
			} else if len(ws) > 1 {
				t.Fatalf("%d datagrams in answer to one Hello", len(ws))
			}
			if got != tt.want {
				t.Fatalf("Hello answered %q, want %q", got, tt.want)
			}
			if got := len(events(s, EventPlayerJoined)) + tt.open; got != tt.wantJoins {
				t.Errorf("%d players joined in all, want %d", got, tt.wantJoins)
			}
			if s.NumPlayers() != tt.wantJoins {
				t.Errorf("NumPlayers = %d, want %d", s.NumPlayers(), tt.wantJoins)
			}
		})
	}
}

// spoofed returns n addresses no real client uses.
func spoofed(n int) []netip.AddrPort {
	out := make([]netip.AddrPort, n)
	for i := range out {
		out[i] = netip.AddrPortFrom(netip.AddrFrom4([4]byte{203, 0, 113, byte(i + 1)}), uint16(40000+i))
	}
	return out
}

// answer names the one handshake datagram in ws: "welcome", "rejected", or
// "" when there is none.
func answer(t *testing.T, ws []wire) string {
	t.Helper()
	if len(ws) == 0 {
		return ""
	}
	if len(ws) > 1 {
		t.Fatalf("%d datagrams in answer to one Hello", len(ws))
	}
	typ, _, err := rtype.ParseHandshake(ws[0].b)
	switch {
	case err != nil:
		t.Fatalf("answered % x", ws[0].b)
	case typ == rtype.HandshakeWelcome:
		return "welcome"
	case typ == rtype.HandshakeRejected:
		return "rejected"
	}
	return typ.String()
}

// §4.4, §12, §13.1: Rejected makes a client stop for good, so it answers a
// Hello only when open connections fill MaxPlayers. Spoofed Hellos leave
// nothing behind (stateless address validation): a real Hello is welcomed
// at once and later, however many came first and whatever
// InactivityTimeout says.
func TestServer_13_1_SpoofedHellosDoNotLockOut(t *testing.T) {
	tests := []struct {
		name       string
		cfg        ServerConfig
		open       int           // real players that complete the handshake first
		spoof      int           // Hellos from addresses that never answer
		after      time.Duration // when addrA sends its second Hello
		wantFirst  string        // answer to addrA's first Hello
		wantSecond string        // answer to addrA's Hello after `after`
	}{
		{"4 spoofed", ServerConfig{}, 0, 4, time.Second, "welcome", "welcome"},
		{"1000 spoofed, next window", ServerConfig{}, 0, 1000, 6 * time.Second, "welcome", "welcome"},
		{"4 spoofed, inactivity off", ServerConfig{InactivityTimeout: Off}, 0, 4, 3 * time.Second, "welcome", "welcome"},
		{"3 open, 200 spoofed", ServerConfig{}, 3, 200, 3 * time.Second, "welcome", "welcome"},
		{"4 open", ServerConfig{}, 4, 0, 3 * time.Second, "rejected", "rejected"},
		{"1 slot, 200 spoofed", ServerConfig{MaxPlayers: 1}, 0, 200, 3 * time.Second, "welcome", "welcome"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			var ids []uint32
			for _, a := range spoofed(tt.open) {
				ids = append(ids, connect(t, s, cp, a, t0))
			}
			for _, a := range spoofed(tt.open + tt.spoof)[tt.open:] {
				s.Receive(hello(), a, t0)
			}
			cp.take()
			s.Receive(hello(), addrA, t0)
			if got := answer(t, cp.to(addrA)); got != tt.wantFirst {
				t.Errorf("first Hello answered %q, want %q", got, tt.wantFirst)
			}
			// The open players keep talking; the spoofed ones never do.
			for i, a := range spoofed(tt.open) {
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: ids[i], Sequence: 2}), a, t0.Add(tt.after))
			}
			s.Tick(t0.Add(tt.after))
			cp.take()
			s.Receive(hello(), addrA, t0.Add(tt.after))
			ws := cp.to(addrA)
			if got := answer(t, ws); got != tt.wantSecond {
				t.Fatalf("Hello after %v answered %q, want %q", tt.after, got, tt.wantSecond)
			}
			if tt.wantSecond != "welcome" {
				return
			}
			_, id, _ := rtype.ParseHandshake(ws[0].b)
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, t0.Add(tt.after))
			if ok := isOpen(s, id); !ok || s.NumPlayers() != tt.open+1 {
				t.Errorf("addrA not a player after its first packet: %d players", s.NumPlayers())
			}
		})
	}
}
