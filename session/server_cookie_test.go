package session

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// testKey makes the connection ids of a server deterministic.
var testKey = []byte("rtype test validation key, 32 b!")

// welcomeID sends a Hello from a at now and returns the id of the Welcome.
func welcomeID(t *testing.T, s *Server, cp *capture, a netip.AddrPort, now time.Time) uint32 {
	t.Helper()
	s.Receive(hello(), a, now)
	out := cp.to(a)
	if len(out) != 1 {
		t.Fatalf("Hello from %v: %d answers", a, len(out))
	}
	typ, id, err := rtype.ParseHandshake(out[0].b)
	if err != nil || typ != rtype.HandshakeWelcome || id == 0 {
		t.Fatalf("Hello from %v answered % x (%v)", a, out[0].b, err)
	}
	return id
}

// §4.3, §12: ids are no longer sequential: three Welcomes in a row are not
// n, n+1, n+2, and each address gets its own, so an off-path attacker
// cannot guess the id sent to a victim's address. Two servers with random
// keys give different ids; a fixed ValidationKey gives the same ids every
// time.
func TestServer_12_IDsAreNotSequential(t *testing.T) {
	tests := []struct {
		name   string
		keyA   []byte
		keyB   []byte
		wantEq bool // the two servers give the same ids
	}{
		{"random keys", nil, nil, false},
		{"empty key is random too", []byte{}, []byte{}, false},
		{"same fixed key", testKey, testKey, true},
		{"different fixed keys", testKey, []byte("another key"), false},
	}
	addrs := []netip.AddrPort{addrA, addrB, addrC, netip.AddrPortFrom(addrA.Addr(), addrA.Port()+1)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, ca := newServer(ServerConfig{ValidationKey: tt.keyA})
			sb, cb := newServer(ServerConfig{ValidationKey: tt.keyB})
			var ida, idb []uint32
			for _, a := range addrs {
				ida = append(ida, welcomeID(t, sa, ca, a, t0))
				idb = append(idb, welcomeID(t, sb, cb, a, t0))
			}
			if ida[1] == ida[0]+1 && ida[2] == ida[1]+1 {
				t.Errorf("sequential ids %v", ida)
			}
			seen := map[uint32]bool{}
			for _, id := range ida {
				seen[id] = true
			}
			if len(seen) != len(addrs) {
				t.Errorf("ids %v are not one per address (another port counts)", ida)
			}
			if eq := ida[0] == idb[0] && ida[1] == idb[1]; eq != tt.wantEq {
				t.Errorf("ids %v and %v: equal = %v, want %v", ida, idb, eq, tt.wantEq)
			}
			if again := welcomeID(t, sa, ca, addrA, t0.Add(time.Second)); again != ida[0] {
				t.Errorf("a Hello 1 s later got %d, want the same %d within a window", again, ida[0])
			}
			if next := welcomeID(t, sa, ca, addrA, t0.Add(validationWindow)); next == ida[0] {
				t.Errorf("the next window gave the same id %d", next)
			}
		})
	}
}

// §4.3: the id derivation with the fixed test key is a stable vector: a
// change to the MAC input, the window or the truncation shows here.
func TestServer_4_3_IDVectors(t *testing.T) {
	j := newCookieJar(testKey)
	tests := []struct {
		addr netip.AddrPort
		at   time.Time
		k    uint8
	}{
		{addrA, t0, 0},
		{addrA, t0, 1},
		{addrA, t0.Add(validationWindow - time.Nanosecond), 0},
		{addrA, t0.Add(validationWindow), 0},
		{addrB, t0, 0},
		{netip.MustParseAddrPort("[2001:db8::1]:5001"), t0, 0},
	}
	got := make([]uint32, len(tests))
	for i, tt := range tests {
		got[i] = j.id(tt.addr, window(tt.at), tt.k)
		if got[i] == 0 {
			t.Errorf("%d: id 0", i)
		}
	}
	// Same window, same id; anything else differs.
	if got[0] != got[2] {
		t.Errorf("ids in one window differ: %d, %d", got[0], got[2])
	}
	for _, pair := range [][2]int{{0, 1}, {0, 3}, {0, 4}, {0, 5}} {
		if got[pair[0]] == got[pair[1]] {
			t.Errorf("ids %d and %d equal: %d", pair[0], pair[1], got[pair[0]])
		}
	}
	// The same inputs under another jar with the same key.
	k := newCookieJar(testKey)
	if k.id(addrA, window(t0), 0) != got[0] {
		t.Errorf("a fixed key does not give deterministic ids")
	}
}

// §4.2, §12: a first packet opens a connection only with an id a Welcome
// to its own address carried in the current or the previous window, and a
// small sequence; anything else is dropped silently and opens nothing.
func TestServer_12_FirstPacketMustVerify(t *testing.T) {
	s0, _ := newServer(ServerConfig{ValidationKey: testKey})
	idA := s0.cookies.id(addrA, window(t0), 0)
	idA1 := s0.cookies.id(addrA, window(t0), 1)
	idB := s0.cookies.id(addrB, window(t0), 0)
	tests := []struct {
		name  string
		id    uint32
		seq   uint32
		at    time.Duration
		opens bool
		drop  DropReason
	}{
		{"own id", idA, 1, 0, true, 0},
		{"own id, second candidate", idA1, 1, 0, true, 0},
		{"own id, sequence 64", idA, 64, 0, true, 0},
		{"own id, sequence 65", idA, 65, 0, false, DropFirstSequence},
		{"own id, sequence 0", idA, 0, 0, false, DropFirstSequence},
		{"own id, next window", idA, 1, validationWindow, true, 0},
		{"own id, two windows later", idA, 1, 2 * validationWindow, false, DropUnknownConnection},
		{"own id, the window before", idA, 1, -time.Second, false, DropUnknownConnection},
		{"another address's id", idB, 1, 0, false, DropUnknownConnection},
		{"id + 1", idA + 1, 1, 0, false, DropUnknownConnection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey})
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: tt.id, Sequence: tt.seq}, rtype.Ping{Timestamp: 1}), addrA, t0.Add(tt.at))
			ok := isOpen(s, tt.id)
			if ok != tt.opens {
				t.Fatalf("opened = %v, want %v (drops %v)", ok, tt.opens, s.Stats().Drops)
			}
			out := cp.take()
			if tt.opens {
				if len(out) != 1 || len(ofType(t, out, rtype.TypePong)) != 1 {
					t.Errorf("first packet answered %v, want its Pong", out)
				}
				return
			}
			if len(out) != 0 || s.Stats().Drops.Count(tt.drop) != 1 || len(events(s, 0)) != 0 {
				t.Errorf("sent %d, drops %v, want one %v and nothing else", len(out), s.Stats().Drops, tt.drop)
			}
		})
	}
}

// §4.3: ids of open connections stay unique, since Player, Kick and
// SpawnFor take them. When an address's first candidate is the id of an
// open connection (a 2⁻³² chance, forced here), its Welcome carries the
// second candidate, which verifies; a packet with the taken id is refused
// as bound to another address (§5.4).
func TestServer_4_3_IDCollision(t *testing.T) {
	s, cp := newServer(ServerConfig{ValidationKey: testKey})
	taken := s.cookies.id(addrB, window(t0), 0)
	if s.join(peer{id: taken, addr: addrA}, connNone, t0) == nil {
		t.Fatal("join failed")
	}
	id := welcomeID(t, s, cp, addrB, t0)
	if id == taken || id != s.cookies.id(addrB, window(t0), 1) {
		t.Fatalf("Welcome to B carried %d, want the second candidate, not %d", id, taken)
	}
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: taken, Sequence: 1}), addrB, t0)
	if s.NumPlayers() != 1 || s.Stats().Drops.Count(DropWrongAddress) != 1 {
		t.Fatalf("the taken id: %d players, drops %v", s.NumPlayers(), s.Stats().Drops)
	}
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrB, t0)
	if c, ok := s.ConnStats(id); !ok || c.Addr != addrB || s.NumPlayers() != 2 {
		t.Errorf("second candidate: %+v, %v, %d players", c, ok, s.NumPlayers())
	}
}

// Hashing a Hello into a Welcome, verifying a first packet that does not
// verify, and answering a waiting client allocate nothing: a flood costs
// CPU, never memory.
func TestServer_12_ValidationDoesNotAllocate(t *testing.T) {
	s := NewServer(ServerConfig{MaxPlayers: 1, ValidationKey: testKey}, func(netip.AddrPort, []byte) {})
	h := hello()
	bad := packet(t, rtype.PacketHeader{ConnectionID: 12345, Sequence: 1})
	now := t0
	// A waits for the slot C holds.
	for _, a := range []netip.AddrPort{addrC, addrA} {
		id := s.cookies.id(a, window(t0), 0)
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), a, t0)
	}
	if s.NumWaiting() != 1 {
		t.Fatalf("%d waiting", s.NumWaiting())
	}
	waiting := packet(t, rtype.PacketHeader{ConnectionID: s.cookies.id(addrA, window(t0), 0)}, rtype.Input{})
	seq := uint32(1)
	tests := []struct {
		name     string
		answered bool
		f        func()
	}{
		{"Hello", true, func() { s.Receive(h, addrB, now) }},
		{"waiting client's packet", true, func() {
			seq++
			binary.BigEndian.PutUint32(waiting[4:], seq)
			s.Receive(waiting, addrA, t0)
		}},
		{"first packet that fails", false, func() { s.Receive(bad, addrB, now) }},
		{"Hello to a full server", true, func() {
			s.state = serverShuttingDown
			s.Receive(h, addrB, now)
			s.state = serverRunning
		}},
	}
	for _, tt := range tests {
		tt.f()
		out := s.Stats().PacketsOut
		if n := testing.AllocsPerRun(1000, func() { now = now.Add(time.Millisecond); tt.f() }); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", tt.name, n)
		}
		if got := s.Stats().PacketsOut - out; (got >= 1000) != tt.answered {
			t.Errorf("%s: %d answers to 1001 datagrams", tt.name, got)
		}
	}
}

// §7.3, §13.3, §12: a late or duplicated packet of a connection that
// closed comes from an address without a connection, with an id that may
// still verify; it must not open the connection again. A recently closed
// (address, id) pair is refused, and a packet with a sequence above 64
// never opens anything.
func TestServer_7_3_LatePacketDoesNotReopen(t *testing.T) {
	tests := []struct {
		name    string
		packets uint32        // packets the client sent before it closed
		close   string        // "disconnect", "timeout" or "kick"
		lateSeq uint32        // sequence of the late packet
		lateAt  time.Duration // when it arrives, after t0
		want    DropReason
	}{
		{"duplicate of the Disconnect", 2, "disconnect", 2, 0, DropClosedConnection},
		{"packet overtaken by the Disconnect", 3, "disconnect", 3, time.Second, DropClosedConnection},
		{"late packet after a timeout", 3, "timeout", 2, 2500 * time.Millisecond, DropClosedConnection},
		{"late packet after a kick", 3, "kick", 4, time.Second, DropClosedConnection},
		{"sequence above 64", 100, "disconnect", 90, time.Second, DropFirstSequence},
		{"sequence 64", 64, "kick", 64, time.Second, DropClosedConnection},
		{"after two windows", 3, "kick", 4, 2 * validationWindow, DropUnknownConnection},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey, InactivityTimeout: 2 * time.Second})
			id := join(t, s, cp, addrA, t0)
			for q := uint32(1); q < tt.packets; q++ {
				if q == tt.lateSeq && q != tt.packets {
					continue // overtaken: arrives after the close
				}
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: q}), addrA, t0)
			}
			switch tt.close {
			case "disconnect":
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.packets}, rtype.Disconnect{Reason: 1}), addrA, t0)
			case "kick":
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.packets}), addrA, t0)
				if err := s.Kick(id, t0); err != nil {
					t.Fatal(err)
				}
			case "timeout":
				s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.packets}), addrA, t0)
				s.Tick(t0.Add(2 * time.Second))
			}
			if s.NumPlayers() != 0 {
				t.Fatalf("connection not closed by %s", tt.close)
			}
			events(s, 0)
			cp.take()
			before := s.Stats().Drops.Count(tt.want)
			var m rtype.Message = rtype.Ping{Timestamp: 1}
			if tt.lateSeq == tt.packets && tt.close == "disconnect" {
				m = rtype.Disconnect{Reason: 1} // the network's copy
			}
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: tt.lateSeq}, m), addrA, t0.Add(tt.lateAt))
			if s.NumPlayers() != 0 || s.NumWaiting() != 0 || len(events(s, 0)) != 0 {
				t.Errorf("the late packet opened a connection (%d players, %d waiting)", s.NumPlayers(), s.NumWaiting())
			}
			if out := cp.take(); len(out) != 0 {
				t.Errorf("the late packet was answered: %v", out)
			}
			if got := s.Stats().Drops.Count(tt.want) - before; got != 1 {
				t.Errorf("Drops.Count(%v) += %d, want 1 (%v)", tt.want, got, s.Stats().Drops)
			}
		})
	}
}

// §7.3, §13.2: a client that disconnects and reconnects from the same
// port gets in again, with a new id, while the late packets of its old
// connection stay refused; a second reconnection within the windows gets
// in too, the fresh Hello clearing the address's closed connections.
func TestServer_7_3_ReconnectFromSamePort(t *testing.T) {
	s, cp := newServer(ServerConfig{ValidationKey: testKey})
	var ids []uint32
	for round := range 3 {
		now := t0.Add(time.Duration(round) * time.Second)
		id := connect(t, s, cp, addrA, now)
		ids = append(ids, id)
		s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 2}, rtype.Disconnect{Reason: 1}), addrA, now)
		if s.NumPlayers() != 0 {
			t.Fatalf("round %d: Disconnect did not close", round)
		}
	}
	if ids[0] == ids[1] || ids[1] == ids[2] {
		t.Errorf("ids %v: a reconnection got the id of the connection it replaces", ids)
	}
	// The first two reconnections' old ids stay refused until the third
	// Hello cleared them; the last one's is refused.
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: ids[2], Sequence: 1}), addrA, t0.Add(2*time.Second))
	if s.NumPlayers() != 0 || s.Stats().Drops.Count(DropClosedConnection) != 1 {
		t.Errorf("a late packet of the last connection: %d players, drops %v", s.NumPlayers(), s.Stats().Drops)
	}
}

// The table of closed connections is a fixed ring of closedSize entries,
// allocated once: past it the oldest is forgotten, and entries older than
// two validation windows no longer count.
func TestServer_ClosedTableIsBounded(t *testing.T) {
	tests := []struct {
		closes    int
		lookAfter time.Duration
		wantLive  int
		wantFirst bool // the first closed connection is still refused
	}{
		{1, 0, 1, true},
		{closedSize, 0, closedSize, true},
		{closedSize + 1, 0, closedSize, false},
		{3 * closedSize, 0, closedSize, false},
		{3, closedMemory - time.Nanosecond, 3, true},
		{3, closedMemory, 0, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d closes, %v", tt.closes, tt.lookAfter), func(t *testing.T) {
			s, cp := newServer(ServerConfig{ValidationKey: testKey})
			addrs := spoofed(tt.closes)
			var first uint32
			for i, a := range addrs {
				id := connect(t, s, cp, a, t0)
				if i == 0 {
					first = id
				}
				if err := s.Kick(id, t0); err != nil {
					t.Fatal(err)
				}
			}
			at := t0.Add(tt.lookAfter)
			if got := liveClosed(&s.closed, at); got != tt.wantLive || len(s.closed.e) != closedSize {
				t.Errorf("%d live entries of %d, want %d of %d", got, len(s.closed.e), tt.wantLive, closedSize)
			}
			if got := s.closed.has(addrs[0], first, at); got != tt.wantFirst {
				t.Errorf("first closed connection refused = %v, want %v", got, tt.wantFirst)
			}
		})
	}
}
