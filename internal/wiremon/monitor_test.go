package wiremon

import (
	"encoding/binary"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

var (
	server = netip.MustParseAddrPort("10.0.0.1:4242")
	alice  = netip.MustParseAddrPort("10.0.0.2:5000")
	bob    = netip.MustParseAddrPort("10.0.0.3:5000")
)

// step is one datagram of an exchange: from the server to a client, or
// from a client to the server.
type step struct {
	toServer bool
	client   netip.AddrPort
	b        []byte
}

func down(c netip.AddrPort, b []byte) step { return step{client: c, b: b} }
func up(c netip.AddrPort, b []byte) step   { return step{toServer: true, client: c, b: b} }

// packet is a connected packet of id numbered seq, carrying msgs.
func packet(id, seq uint32, msgs ...rtype.Message) []byte {
	b, _ := rtype.PacketHeader{ConnectionID: id, Sequence: seq}.AppendBinary(nil)
	for _, m := range msgs {
		b, _ = rtype.AppendMessage(b, m)
	}
	return b
}

// raw appends a message of type t with payload p, whatever they are.
func raw(b []byte, t uint16, p []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, t)
	b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
	return append(b, p...)
}

func snap(ids ...uint32) rtype.Snapshot {
	s := rtype.Snapshot{ServerTick: 9}
	for _, id := range ids {
		s.States = append(s.States, rtype.EntityState{NetworkID: id})
	}
	return s
}

// pad makes b n bytes long with an unknown message of the server's range.
func pad(b []byte, n int) []byte {
	return raw(b, 0x00FE, make([]byte, n-len(b)-rtype.MessageHeaderSize))
}

// got is what a test reads of a rule: judged, broken, and a word of the
// first breach.
type got struct{ Judged, Broken int }

// TestMonitorServer_Rules plays exchanges with a server and checks what
// each rule of §2.2 to §8 counted.
func TestMonitorServer_Rules(t *testing.T) {
	welcome := down(alice, rtype.AppendWelcome(nil, 7))
	for _, tc := range []struct {
		name  string
		steps []step
		want  map[Rule]got
		first string // a word of the first breach of the rule broken
	}{
		{name: "§5.2 valid numbering", steps: []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2, snap(1, 2))), down(alice, packet(7, 3))},
			want: map[Rule]got{Numbering: {3, 0}, ConnID: {3, 0}, Framing: {3, 0}, SnapDupID: {1, 0}}},
		{name: "§2.2 a datagram of 549 bytes", steps: []step{welcome, down(alice, pad(packet(7, 1), 549))},
			want: map[Rule]got{Size: {2, 1}, Numbering: {1, 0}}, first: "549-byte"},
		{name: "§4.3 a Welcome of id 0", steps: []step{down(alice, append(rtype.AppendHello(nil)[:5], byte(rtype.HandshakeWelcome), 0, 0, 0, 0))},
			want: map[Rule]got{WelcomeID: {1, 1}}, first: "connectionId 0"},
		{name: "§5.1 another connection's id spends its number", steps: []step{welcome, down(alice, packet(7, 1)), down(alice, packet(8, 2)), down(alice, packet(7, 3))},
			want: map[Rule]got{ConnID: {3, 1}, Numbering: {3, 0}}, first: "carries connectionId 8"},
		{name: "§5.2 a repeat", steps: []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2)), down(alice, packet(7, 2))},
			want: map[Rule]got{Numbering: {3, 1}}, first: "repeated sequence 2"},
		{name: "§5.2 a gap", steps: []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 3))},
			want: map[Rule]got{Numbering: {2, 1}}, first: "had sequence 3, want 2"},
		{name: "§5.2 the first packet is 1", steps: []step{welcome, down(alice, packet(7, 2))},
			want: map[Rule]got{Numbering: {1, 1}}, first: "first packet"},
		{name: "§5.2 going back", steps: []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2)), down(alice, packet(7, 1))},
			want: map[Rule]got{Numbering: {3, 1}}, first: "went back to sequence 1"},
		{name: "§5.2 a valid copy of an oversize packet is no repeat", steps: []step{welcome, down(alice, pad(packet(7, 1), 549)), down(alice, packet(7, 1)), down(alice, packet(7, 2))},
			want: map[Rule]got{Size: {4, 1}, Numbering: {3, 0}}},
		{name: "§5.2 a Welcome of the same id again starts over at 1", steps: []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2)), welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2))},
			want: map[Rule]got{Numbering: {4, 0}}},
		{name: "§5.2 or goes on", steps: []step{welcome, down(alice, packet(7, 1)), welcome, down(alice, packet(7, 2))},
			want: map[Rule]got{Numbering: {2, 0}}},
		{name: "§5.2 each connection its own", steps: []step{welcome, down(bob, rtype.AppendWelcome(nil, 8)), down(alice, packet(7, 1)), down(bob, packet(8, 1)), down(bob, packet(8, 2)), down(alice, packet(7, 2))},
			want: map[Rule]got{Numbering: {4, 0}, ConnID: {4, 0}}},
		{name: "§5.3 two bytes after the last message", steps: []step{welcome, down(alice, append(packet(7, 1, rtype.Pong{}), 0, 0))},
			want: map[Rule]got{Framing: {1, 1}, Numbering: {1, 0}, TypeRange: {0, 0}}, first: "no valid packet"},
		{name: "§5.3 shorter than a header", steps: []step{welcome, down(alice, make([]byte, 12))},
			want: map[Rule]got{Framing: {1, 1}}, first: "shorter than a packet's header"},
		{name: "§6 a type of the clients' range", steps: []step{welcome, down(alice, raw(packet(7, 1), 0x0042, nil))},
			want: map[Rule]got{TypeRange: {1, 1}}, first: "type 0x0042"},
		{name: "§6 a type past 0xFF", steps: []step{welcome, down(alice, raw(packet(7, 1), 0x0183, nil))},
			want: map[Rule]got{TypeRange: {1, 1}}, first: "type 0x0183"},
		{name: "§8.1 an id twice", steps: []step{welcome, down(alice, raw(packet(7, 1), uint16(rtype.TypeSnapshot), snapBytes(2, 5, 5)))},
			want: map[Rule]got{SnapDupID: {1, 1}, SnapSize: {1, 0}}, first: "twice"},
		{name: "§8.1 entityCount one too many", steps: []step{welcome, down(alice, raw(packet(7, 1), uint16(rtype.TypeSnapshot), snapBytes(3, 5, 6)))},
			want: map[Rule]got{SnapSize: {1, 1}}, first: "entityCount 3"},
		{name: "§8.1 entityCount 48", steps: []step{welcome, down(alice, raw(packet(7, 1), uint16(rtype.TypeSnapshot), snapBytes(48, 1, 2)))},
			want: map[Rule]got{SnapCount: {1, 1}}, first: "entityCount 48"},
		{name: "§8.1 networkId 0", steps: []step{welcome, down(alice, raw(packet(7, 1), uint16(rtype.TypeSnapshot), snapBytes(1, 0)))},
			want: map[Rule]got{SnapZeroID: {1, 1}}, first: "networkId 0"},
		{name: "§8.3 reason 5", steps: []step{welcome, down(alice, raw(packet(7, 1), uint16(rtype.TypeDestroyEntity), []byte{0, 0, 0, 1, 0, 0, 0, 9, 5}))},
			want: map[Rule]got{DestroyReason: {1, 1}, DestroySize: {1, 0}}, first: "reason 5"},
		{name: "§7.2 a Pong of 5 bytes", steps: []step{welcome, down(alice, raw(packet(7, 1), uint16(rtype.TypePong), make([]byte, 5)))},
			want: map[Rule]got{Message: {1, 1}}, first: "Pong"},
		{name: "§4 garbage to an address with no connection", steps: []step{down(alice, []byte{1, 2, 3})},
			want: map[Rule]got{Handshake: {1, 1}, Size: {1, 0}}},
		{name: "§3 a Welcome to a connected client gives no connection", steps: []step{welcome, up(alice, packet(7, 1)), down(alice, rtype.AppendWelcome(nil, 8)), down(alice, packet(8, 1))},
			want: map[Rule]got{ConnID: {1, 1}}, first: "carries connectionId 8"},
		{name: "§3 until the client says Hello again", steps: []step{welcome, up(alice, packet(7, 1)), up(alice, rtype.AppendHello(nil)), down(alice, rtype.AppendWelcome(nil, 8)), down(alice, packet(8, 1))},
			want: map[Rule]got{ConnID: {1, 0}, Numbering: {1, 0}}},
		{name: "what clients send is not judged", steps: []step{up(alice, rtype.AppendHello(nil)), welcome, up(alice, make([]byte, 600)), up(alice, packet(7, 5))},
			want: map[Rule]got{Size: {1, 0}, Numbering: {0, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := New(Server)
			w.Watch(server)
			for _, s := range tc.steps {
				saw(w, s)
			}
			for r, want := range tc.want {
				rec := w.Record(r)
				if diff := cmp.Diff(want, got{rec.Judged, rec.Broken}); diff != "" {
					t.Errorf("rule %d (%s): judged, broken (-want +got):\n%s", r, r.Section(), diff)
				}
				if want.Broken > 0 && !strings.Contains(rec.First, tc.first) {
					t.Errorf("rule %d (%s): first breach %q, want it to say %q", r, r.Section(), rec.First, tc.first)
				}
			}
		})
	}
}

func saw(w *Monitor, s step) (Rule, string, bool) {
	if s.toServer {
		return w.Saw(s.client, server, s.b, time.Now())
	}
	return w.Saw(server, s.client, s.b, time.Now())
}

// snapBytes is a Snapshot payload whose entityCount is count, listing ids.
func snapBytes(count int, ids ...uint32) []byte {
	b := binary.BigEndian.AppendUint32(nil, 9)
	b = binary.BigEndian.AppendUint16(b, uint16(count))
	if len(ids) == 0 {
		for i := range count {
			ids = append(ids, uint32(i+1))
		}
	}
	for _, id := range ids {
		b = binary.BigEndian.AppendUint32(b, id)
		b = append(b, make([]byte, 7)...)
	}
	return b
}

// TestMonitorClient_Rules judges a client's datagrams: its numbering (§5.2)
// and its types (§6), while the server's are not judged.
func TestMonitorClient_Rules(t *testing.T) {
	w := New(Client)
	w.Watch(server)
	steps := []step{
		up(alice, rtype.AppendHello(nil)),
		down(alice, rtype.AppendWelcome(nil, 7)),
		up(alice, packet(7, 1, rtype.Ping{})),
		down(alice, pad(packet(7, 1), 600)),
		up(alice, packet(7, 2, rtype.Pong{})),
		up(alice, packet(7, 4)),
	}
	var broke []Rule
	for _, s := range steps {
		if r, _, ok := saw(w, s); ok {
			broke = append(broke, r)
		}
	}
	if diff := cmp.Diff([]Rule{TypeRange, Numbering}, broke); diff != "" {
		t.Errorf("rules broken, datagram by datagram (-want +got):\n%s", diff)
	}
	if rec := w.Record(Size); rec.Judged != 4 || rec.Broken != 0 {
		t.Errorf("§2.2 judged %d, broken %d: want the client's 4 datagrams, none broken (the server's 600 bytes are not judged)", rec.Judged, rec.Broken)
	}
}

// TestMonitor_Bounded: a flood of Welcomes to new addresses keeps at most
// maxConns of them, each at most maxOffered connections.
func TestMonitor_Bounded(t *testing.T) {
	w := New(Server)
	w.Watch(server)
	for i := range maxConns + 100 {
		a := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), 9)
		w.Saw(server, a, rtype.AppendWelcome(nil, uint32(i+1)), time.Now())
	}
	for i := range 3 * maxOffered {
		w.Saw(server, alice, rtype.AppendWelcome(nil, uint32(i+1)), time.Now())
	}
	if n := len(w.conns); n > maxConns {
		t.Errorf("%d addresses kept, want at most %d", n, maxConns)
	}
	if c := w.conns[alice]; c != nil && len(c.ids) > maxOffered {
		t.Errorf("%d connections of one address kept, want at most %d", len(c.ids), maxOffered)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 3412: "3,412", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// FuzzMonitor feeds any datagrams both ways: nothing panics, and no rule is
// broken more often than judged.
func FuzzMonitor(f *testing.F) {
	f.Add(rtype.AppendWelcome(nil, 7), packet(7, 1, snap(1, 2)), false)
	f.Add(rtype.AppendWelcome(nil, 0), pad(packet(7, 2), 549), true)
	f.Add(rtype.AppendHello(nil), raw(packet(7, 1), uint16(rtype.TypeSnapshot), snapBytes(2, 5, 5)), false)
	f.Fuzz(func(t *testing.T, a, b []byte, client bool) {
		role := Server
		if client {
			role = Client
		}
		w := New(role)
		w.Watch(server)
		for _, s := range []step{down(alice, a), up(alice, a), down(alice, b), up(alice, b), down(alice, b)} {
			saw(w, s)
		}
		for r := range NumRules {
			if rec := w.Record(r); rec.Broken > rec.Judged || (rec.Broken > 0) != (rec.First != "") {
				t.Fatalf("rule %d: %+v", r, rec)
			}
		}
	})
}

// TestMonitor_Clamp follows an entity through Snapshots (§9.1): a jump
// from one far side of the range to the other within 30 ticks breaks the
// rule; one that stays at an end is the clamp's evidence; a CreateEntity
// starts a new life of the id, with no jump to see.
func TestMonitor_Clamp(t *testing.T) {
	at := func(tick uint32, x float64) rtype.Message {
		return rtype.Snapshot{ServerTick: tick, States: []rtype.EntityState{{NetworkID: 5, X: rtype.PosFromPixels(x), Y: rtype.PosFromPixels(100)}}}
	}
	welcome := down(alice, rtype.AppendWelcome(nil, 7))
	for _, tc := range []struct {
		name  string
		steps []step
		want  got
		bound bool
	}{
		{"moving", []step{welcome, down(alice, packet(7, 1, at(3, 100))), down(alice, packet(7, 2, at(6, 120)))}, got{1, 0}, false},
		{"wrapped", []step{welcome, down(alice, packet(7, 1, at(3, 8100))), down(alice, packet(7, 2, at(6, -8150)))}, got{1, 1}, false},
		{"clamped", []step{welcome, down(alice, packet(7, 1, at(3, 8191.75))), down(alice, packet(7, 2, at(6, 8191.75)))}, got{1, 0}, true},
		{"30 ticks apart at most", []step{welcome, down(alice, packet(7, 1, at(3, 8100))), down(alice, packet(7, 2, at(40, -8150)))}, got{0, 0}, false},
		{"a new life", []step{welcome, down(alice, packet(7, 1, at(3, 8100))),
			down(alice, packet(7, 2, rtype.CreateEntity{ServerTick: 4, NetworkID: 5, X: rtype.PosFromPixels(-8150)})), down(alice, packet(7, 3, at(6, -8150)))}, got{0, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := New(Server)
			w.Watch(server)
			for _, s := range tc.steps {
				saw(w, s)
			}
			rec := w.Record(Clamp)
			if diff := cmp.Diff(tc.want, got{rec.Judged, rec.Broken}); diff != "" {
				t.Errorf("judged, broken (-want +got):\n%s", diff)
			}
			if p := w.Positions(); (p.Bound != "") != tc.bound {
				t.Errorf("bound %q, want one: %v", p.Bound, tc.bound)
			}
		})
	}
}

// TestMonitor_Lossy: on a lossy path a gap and a byte-for-byte copy are no
// breach of §5.2; a repeat with other bytes, or going back, still is.
func TestMonitor_Lossy(t *testing.T) {
	welcome := down(alice, rtype.AppendWelcome(nil, 7))
	for _, tc := range []struct {
		name  string
		steps []step
		want  got
	}{
		{"a gap", []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 4))}, got{2, 0}},
		{"a copy", []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2)), down(alice, packet(7, 2))}, got{2, 0}},
		{"a repeat", []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 2)), down(alice, packet(7, 2, rtype.Pong{}))}, got{3, 1}},
		{"going back", []step{welcome, down(alice, packet(7, 1)), down(alice, packet(7, 3)), down(alice, packet(7, 2))}, got{3, 1}},
	} {
		w := New(Server)
		w.Watch(server)
		w.Lossy()
		for _, s := range tc.steps {
			saw(w, s)
		}
		if rec := w.Record(Numbering); got(struct{ Judged, Broken int }{rec.Judged, rec.Broken}) != tc.want {
			t.Errorf("%s: judged %d, broken %d; want %+v", tc.name, rec.Judged, rec.Broken, tc.want)
		}
	}
}
