package rtype

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpec4_ParseHandshake(t *testing.T) {
	tests := []struct {
		name string
		in   string
		typ  HandshakeType
		id   uint32
		err  error
	}{
		{"4.2 Hello", "52545950 01 01", HandshakeHello, 0, nil},
		{"4.3 Welcome", "52545950 01 02 0000002A", HandshakeWelcome, 42, nil},
		{"4.4 Rejected", "52545950 01 03", HandshakeRejected, 0, nil},
		{"4.1 empty", "", 0, 0, ErrShortHandshake},
		{"4.1 truncated header", "52545950 01", 0, 0, ErrShortHandshake},
		{"4.1 bad magic", "52545951 01 01", 0, 0, ErrBadMagic},
		{"4.1 version 0", "52545950 00 01", 0, 0, ErrBadVersion},
		{"4.1 version 2", "52545950 02 01", 0, 0, ErrBadVersion},
		{"4.1 type 0", "52545950 01 00", 0, 0, ErrBadHandshakeType},
		{"4.1 type 4", "52545950 01 04", 0, 0, ErrBadHandshakeType},
		{"4.1 Hello with extra byte", "52545950 01 01 00", 0, 0, ErrHandshakeSize},
		{"4.3 Welcome too short", "52545950 01 02 000001", 0, 0, ErrHandshakeSize},
		{"4.3 Welcome too long", "52545950 01 02 00000001 00", 0, 0, ErrHandshakeSize},
		{"4.3 Welcome id 0", "52545950 01 02 00000000", 0, 0, ErrZeroConnectionID},
		{"4.4 Rejected with extra bytes", "52545950 01 03 0000", 0, 0, ErrHandshakeSize},
		{"2.2 over 548 bytes", "52545950 01 01" + string(bytes.Repeat([]byte("00"), 543)), 0, 0, ErrDatagramTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, id, err := ParseHandshake(mustHex(tt.in))
			if !errors.Is(err, tt.err) || typ != tt.typ || id != tt.id {
				t.Errorf("ParseHandshake = %v, %d, %v; want %v, %d, %v", typ, id, err, tt.typ, tt.id, tt.err)
			}
		})
	}
}

func TestSpec4_3_AppendWelcomeRefusesZero(t *testing.T) {
	b := []byte{0xAA}
	if got := AppendWelcome(b, 0); !bytes.Equal(got, b) {
		t.Errorf("AppendWelcome(b, 0) = % x, want b unchanged", got)
	}
}

// decoder is what every message's pointer type provides.
type decoder interface {
	UnmarshalBinary([]byte) error
}

// TestMessageRules checks each receiver rule of §7 and §8 on one payload.
func TestMessageRules(t *testing.T) {
	tests := []struct {
		name    string
		dst     decoder
		payload string
		err     error
	}{
		{"7.1 Input 9 bytes", new(Input), "0000002A 0000012C 11", nil},
		{"7.1 Input 8 bytes", new(Input), "0000002A 0000012C", ErrPayloadSize},
		{"7.1 Input 10 bytes", new(Input), "0000002A 0000012C 11 00", ErrPayloadSize},
		{"7.1 Input reserved bit 5", new(Input), "0000002A 0000012C 20", ErrReservedActions},
		{"7.1 Input reserved bit 7", new(Input), "0000002A 0000012C 80", ErrReservedActions},
		{"7.2 Ping 4 bytes", new(Ping), "00000001", nil},
		{"7.2 Ping 3 bytes", new(Ping), "000001", ErrPayloadSize},
		{"7.2 Ping 5 bytes", new(Ping), "0000000100", ErrPayloadSize},
		{"7.3 Disconnect reason 1", new(Disconnect), "01", nil},
		{"7.3 Disconnect any reason", new(Disconnect), "FF", nil},
		{"7.3 Disconnect empty", new(Disconnect), "", ErrPayloadSize},
		{"7.3 Disconnect 2 bytes", new(Disconnect), "0101", ErrPayloadSize},
		{"7.4 QueryEntity", new(QueryEntity), "000003ED", nil},
		{"7.4 QueryEntity id 0", new(QueryEntity), "00000000", ErrZeroNetworkID},
		{"7.4 QueryEntity 5 bytes", new(QueryEntity), "000003ED00", ErrPayloadSize},
		{"8.1 Snapshot empty", new(Snapshot), "00000258 0000", nil},
		{"8.1 Snapshot one state", new(Snapshot), "00000258 0001 000003ED FF 9F40 84B0 0000", nil},
		{"8.1 Snapshot short header", new(Snapshot), "00000258 00", ErrPayloadSize},
		{"8.1 Snapshot count 48", new(Snapshot), "00000258 0030", ErrTooManyStates},
		{"8.1 Snapshot count 65535", new(Snapshot), "00000258 FFFF", ErrTooManyStates},
		{"8.1 Snapshot size below 6+11n", new(Snapshot), "00000258 0001 000003ED FF 9F40 84B0 00", ErrPayloadSize},
		{"8.1 Snapshot size above 6+11n", new(Snapshot), "00000258 0001 000003ED FF 9F40 84B0 0000 00", ErrPayloadSize},
		{"8.1 Snapshot id 0", new(Snapshot), "00000258 0001 00000000 FF 9F40 84B0 0000", ErrZeroNetworkID},
		{"8.1 Snapshot duplicate ids", new(Snapshot), "00000258 0002 00000005 01 0000 0000 0000 00000005 01 0000 0000 0000", ErrDuplicateNetworkID},
		{"8.1 Snapshot duplicate ids not adjacent", new(Snapshot), "00000258 0003 00000005 01 0000 0000 0000 00000007 01 0000 0000 0000 00000005 01 0000 0000 0000", ErrDuplicateNetworkID},
		{"8.1 Snapshot descending ids", new(Snapshot), "00000258 0002 00000007 01 0000 0000 0000 00000005 01 0000 0000 0000", nil},
		{"8.2 CreateEntity", new(CreateEntity), "00000258 000003ED 87FF 9F40 84B0 0000", nil},
		{"8.2 CreateEntity unknown archetype", new(CreateEntity), "00000258 000003ED 1234 9F40 84B0 0000", nil},
		{"8.2 CreateEntity id 0", new(CreateEntity), "00000258 00000000 87FF 9F40 84B0 0000", ErrZeroNetworkID},
		{"8.2 CreateEntity 15 bytes", new(CreateEntity), "00000258 000003ED 87FF 9F40 84B0 00", ErrPayloadSize},
		{"8.2 CreateEntity 17 bytes", new(CreateEntity), "00000258 000003ED 87FF 9F40 84B0 0000 00", ErrPayloadSize},
		{"8.3 DestroyEntity reason 4", new(DestroyEntity), "00000258 000003ED 04", nil},
		{"8.3 DestroyEntity reason 0", new(DestroyEntity), "00000258 000003ED 00", nil},
		{"8.3 DestroyEntity reason 5", new(DestroyEntity), "00000258 000003ED 05", ErrDestroyReason},
		{"8.3 DestroyEntity id 0", new(DestroyEntity), "00000258 00000000 01", ErrZeroNetworkID},
		{"8.3 DestroyEntity 8 bytes", new(DestroyEntity), "00000258 000003ED", ErrPayloadSize},
		{"8.4 Pong", new(Pong), "DEADBEEF", nil},
		{"8.4 Pong 0 bytes", new(Pong), "", ErrPayloadSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.dst.UnmarshalBinary(mustHex(tt.payload)); !errors.Is(err, tt.err) {
				t.Errorf("UnmarshalBinary = %v, want %v", err, tt.err)
			}
		})
	}
}

// A failed decode leaves the destination as it was (§12: bad input changes
// no state), a Snapshot's reused States included.
func TestMessageRules_FailureKeepsState(t *testing.T) {
	in := Input{InputSequence: 7, ClientTick: 8, Actions: ActionLeft}
	if err := in.UnmarshalBinary(mustHex("0000002A 0000012C 80")); err == nil {
		t.Fatal("reserved bits accepted")
	}
	if diff := cmp.Diff(Input{InputSequence: 7, ClientTick: 8, Actions: ActionLeft}, in); diff != "" {
		t.Errorf("Input changed (-before +after):\n%s", diff)
	}

	states := []EntityState{{NetworkID: 1, X: 3}, {NetworkID: 2, Y: 4}}
	snap := Snapshot{ServerTick: 9, States: states}
	before := Snapshot{ServerTick: 9, States: append([]EntityState(nil), states...)}
	dup := "00000258 0002 00000005 01 0000 0000 0000 00000005 01 0000 0000 0000"
	if err := snap.UnmarshalBinary(mustHex(dup)); !errors.Is(err, ErrDuplicateNetworkID) {
		t.Fatalf("err = %v", err)
	}
	if diff := cmp.Diff(before, snap); diff != "" {
		t.Errorf("Snapshot changed (-before +after):\n%s", diff)
	}

	d := DestroyEntity{ServerTick: 1, NetworkID: 2, Reason: 3}
	if err := d.UnmarshalBinary(mustHex("00000258 000003ED 05")); err == nil {
		t.Fatal("reason 5 accepted")
	}
	if d != (DestroyEntity{ServerTick: 1, NetworkID: 2, Reason: 3}) {
		t.Errorf("DestroyEntity changed: %+v", d)
	}
}

// Encoders refuse what a receiver must drop, and leave b as it was.
func TestEncodersRefuseInvalid(t *testing.T) {
	many := make([]EntityState, MaxSnapshotStates+1)
	for i := range many {
		many[i].NetworkID = uint32(i + 1)
	}
	tests := []struct {
		name string
		m    Message
		err  error
	}{
		{"7.1 reserved actions", Input{Actions: 0x40}, ErrReservedActions},
		{"7.4 QueryEntity id 0", QueryEntity{}, ErrZeroNetworkID},
		{"8.1 Snapshot 48 states", Snapshot{States: many}, ErrPayloadTooLarge},
		{"8.1 Snapshot id 0", Snapshot{States: []EntityState{{NetworkID: 3}, {}}}, ErrZeroNetworkID},
		{"8.1 Snapshot duplicate", Snapshot{States: []EntityState{{NetworkID: 3}, {NetworkID: 4}, {NetworkID: 3}}}, ErrDuplicateNetworkID},
		{"8.2 CreateEntity id 0", CreateEntity{}, ErrZeroNetworkID},
		{"8.3 DestroyEntity id 0", DestroyEntity{}, ErrZeroNetworkID},
		{"8.3 DestroyEntity reason 5", DestroyEntity{NetworkID: 1, Reason: 5}, ErrDestroyReason},
		{"6 type 0", RawMessage{}, ErrMessageType},
		{"2.2 payload over 528", RawMessage{Type: 0x7F, Payload: make([]byte, 529)}, ErrPayloadTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := []byte{1, 2, 3}
			got, err := AppendMessage(b, tt.m)
			if !errors.Is(err, tt.err) || !bytes.Equal(got, b) {
				t.Errorf("AppendMessage = % x, %v; want b unchanged, %v", got, err, tt.err)
			}
		})
	}
	if _, err := (Snapshot{States: many}).AppendBinary(nil); !errors.Is(err, ErrTooManyStates) {
		t.Errorf("Snapshot.AppendBinary(48 states) = %v, want ErrTooManyStates", err)
	}
	if _, err := (PacketHeader{}).AppendBinary(nil); !errors.Is(err, ErrZeroConnectionID) {
		t.Errorf("PacketHeader{}.AppendBinary = %v, want ErrZeroConnectionID", err)
	}
}

// §8.1: a Snapshot of up to 47 states fills at most 523 bytes of payload.
func TestSpec8_1_SplitSnapshot(t *testing.T) {
	for _, n := range []int{0, 1, 46, 47, 48, 94, 95, 200} {
		states := make([]EntityState, n)
		for i := range states {
			states[i].NetworkID = uint32(i + 1)
		}
		got := []EntityState{}
		parts := 0
		for s := range SplitSnapshot(77, states) {
			parts++
			if s.ServerTick != 77 || len(s.States) > MaxSnapshotStates {
				t.Fatalf("n=%d: part with tick %d and %d states", n, s.ServerTick, len(s.States))
			}
			if _, err := AppendMessage(nil, s); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			got = append(got, s.States...)
		}
		if wantParts := max(1, (n+MaxSnapshotStates-1)/MaxSnapshotStates); parts != wantParts {
			t.Errorf("n=%d: %d parts, want %d", n, parts, wantParts)
		}
		if diff := cmp.Diff(states, got); diff != "" {
			t.Errorf("n=%d: states (-want +got):\n%s", n, diff)
		}
	}
}

func TestSpec7_1_Velocity(t *testing.T) {
	tests := []struct {
		a      Actions
		vx, vy float64
	}{
		{0, 0, 0},
		{ActionUp, 0, -10},
		{ActionDown, 0, 10},
		{ActionLeft, -10, 0},
		{ActionRight, 10, 0},
		{ActionUp | ActionDown, 0, 10},                      // Down wins
		{ActionLeft | ActionRight, 10, 0},                   // Right wins
		{ActionUp | ActionRight, 7.071, -7.071},             // diagonal
		{ActionUp | ActionDown | ActionLeft, -7.071, 7.071}, // Down wins, then diagonal
		{ActionShoot, 0, 0},
	}
	for _, tt := range tests {
		vx, vy := tt.a.Velocity(10)
		if vx != tt.vx || vy != tt.vy {
			t.Errorf("%v.Velocity(10) = (%v, %v), want (%v, %v)", tt.a, vx, vy, tt.vx, tt.vy)
		}
	}
	if got := (ActionUp | ActionRight | ActionShoot); got != 0x19 {
		t.Errorf("Up|Right|Shoot = %#x, §7.1 says 0x19", uint8(got))
	}
}
