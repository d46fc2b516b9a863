package rtype

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpec5_3_BuilderRefusesWhatDoesNotFit(t *testing.T) {
	var b Builder
	if err := Add(&b, Ping{}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("Add before Reset = %v, want ErrNoRoom", err)
	}
	if err := b.Reset(PacketHeader{}); !errors.Is(err, ErrZeroConnectionID) {
		t.Errorf("Reset with id 0 = %v", err)
	}
	if err := b.Reset(PacketHeader{ConnectionID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Add(&b, RawMessage{Type: 0x7E, Payload: make([]byte, MaxMessagePayload)}); err != nil {
		t.Fatalf("a 528-byte payload must fit an empty packet: %v", err)
	}
	full := append([]byte(nil), b.Bytes()...)
	if len(full) != MaxDatagramSize {
		t.Fatalf("packet is %d bytes, want 548", len(full))
	}
	if err := Add(&b, Disconnect{Reason: 1}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("Add to a full packet = %v, want ErrNoRoom", err)
	}
	if err := Add(&b, QueryEntity{}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("Add = %v, want ErrNoRoom", err)
	}
	if !bytes.Equal(full, b.Bytes()) || b.Count() != 1 {
		t.Error("a refused Add changed the packet")
	}
	if err := b.Reset(PacketHeader{ConnectionID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Add(&b, QueryEntity{}); !errors.Is(err, ErrZeroNetworkID) || b.Len() != PacketHeaderSize {
		t.Errorf("Add(QueryEntity{0}) = %v with length %d", err, b.Len())
	}
}

// A negative Len from a caller's Message type must not get past the Builder.
type badLen struct{ RawMessage }

func (badLen) Len() int { return -2 }

func TestBuilderEdgeCases(t *testing.T) {
	var b Builder
	if err := Add(&b, badLen{RawMessage{Type: 9}}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("Add before Reset = %v, want ErrNoRoom", err)
	}
	if err := b.Reset(PacketHeader{ConnectionID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Add(&b, badLen{RawMessage{Type: 9}}); err == nil || b.Len() != PacketHeaderSize {
		t.Errorf("Add(negative Len) = %v with length %d", err, b.Len())
	}
	many := make([]EntityState, MaxSnapshotStates+1)
	for i := range many {
		many[i].NetworkID = uint32(i + 1)
	}
	if err := Add(&b, Snapshot{States: many}); !errors.Is(err, ErrPayloadTooLarge) {
		t.Errorf("Add(48 states) = %v, want ErrPayloadTooLarge like AppendMessage", err)
	}
	p, err := ParsePacket(b.Bytes())
	if err != nil || len(p) != PacketHeaderSize || messageCount(p) != 0 {
		t.Errorf("empty packet: %d bytes, %d messages, %v", len(p), messageCount(p), err)
	}
}

// TestBuilderAvailable follows Available from an empty packet to a full one:
// the payload the next message can carry after its 4-byte header (§5.3),
// and -1 once not even a header fits.
func TestBuilderAvailable(t *testing.T) {
	const empty = MaxMessagePayload // 548 - 16 - 4
	for _, tc := range []struct {
		name     string
		payloads []int // sizes of the messages added after Reset
		want     int
	}{
		{"empty", nil, empty},
		{"one empty message", []int{0}, empty - 4},
		{"partly full", []int{9, 4}, empty - 13 - 8},
		{"room for a header only", []int{empty - 4}, 0},
		{"3 bytes left", []int{empty - 3}, -1},
		{"1 byte left", []int{empty - 1}, -1},
		{"exactly full", []int{empty}, -1},
		{"exactly full by several", []int{100, 200, empty - 308}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b Builder
			if err := b.Reset(PacketHeader{ConnectionID: 1}); err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.payloads {
				if err := Add(&b, RawMessage{Type: 0x7E, Payload: make([]byte, n)}); err != nil {
					t.Fatalf("Add(%d bytes) with %d used: %v", n, b.Len(), err)
				}
			}
			if got := b.Available(); got != tc.want {
				t.Fatalf("Available() = %d with %d bytes used, want %d", got, b.Len(), tc.want)
			}
			checkAvailableIsExact(t, &b)
		})
	}
	var b Builder
	if got := b.Available(); got != -1 {
		t.Errorf("Available() before Reset = %d, want -1", got)
	}
}

// checkAvailableIsExact adds one byte over Available, which must be refused
// and change nothing, then exactly Available, which must fit.
func checkAvailableIsExact(t *testing.T, b *Builder) {
	t.Helper()
	avail, used := b.Available(), b.Len()
	want := ErrNoRoom
	if avail == MaxMessagePayload {
		want = ErrPayloadTooLarge // too large for any packet
	}
	over := RawMessage{Type: 0x7E, Payload: make([]byte, avail+1)}
	if err := Add(b, over); err != want || b.Len() != used || b.Available() != avail {
		t.Errorf("Add(%d bytes), one over Available = %v, %d bytes used; want %v, %d", avail+1, err, b.Len(), want, used)
	}
	if avail < 0 {
		return
	}
	if err := Add(b, RawMessage{Type: 0x7E, Payload: make([]byte, avail)}); err != nil || b.Len() != MaxDatagramSize {
		t.Errorf("Add(%d bytes), exactly Available = %v, %d bytes used; want nil, 548", avail, err, b.Len())
	}
}

// A RawMessage sends a type this package does not know, as it is, through
// both encoders; type 0 is never sent (§6).
func TestRawMessageIsAMessage(t *testing.T) {
	m := RawMessage{Type: 0x7E, Payload: []byte{1, 2, 3}}
	want := []byte{0x00, 0x7E, 0x00, 0x03, 1, 2, 3}
	if got, err := AppendMessage(nil, m); err != nil || !bytes.Equal(got, want) {
		t.Errorf("AppendMessage(%v) = % x, %v; want % x", m, got, err, want)
	}
	var b Builder
	if err := b.Reset(PacketHeader{ConnectionID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Add(&b, m); err != nil || !bytes.Equal(b.Bytes()[PacketHeaderSize:], want) || b.Count() != 1 {
		t.Errorf("Add(%v) = %v, message area % x; want % x", m, err, b.Bytes()[PacketHeaderSize:], want)
	}
	zero := RawMessage{Payload: []byte{1}}
	if err := Add(&b, zero); err != ErrMessageType || b.Len() != PacketHeaderSize+len(want) || b.Count() != 1 {
		t.Errorf("Add(type 0) = %v with %d bytes used, want ErrMessageType and the packet unchanged", err, b.Len())
	}
}

// freshSlice is a caller's Message whose AppendBinary returns a new slice
// instead of appending in place.
type freshSlice struct{}

func (freshSlice) MessageType() MessageType { return 0x7E }
func (freshSlice) Len() int                 { return 2 }
func (freshSlice) AppendBinary(b []byte) ([]byte, error) {
	return append(append([]byte(nil), b...), 0xAB, 0xCD), nil
}

func TestBuilderCopiesAReallocatedPayload(t *testing.T) {
	var b Builder
	if err := b.Reset(PacketHeader{ConnectionID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Add(&b, freshSlice{}); err != nil {
		t.Fatal(err)
	}
	want := append(PacketHeader{ConnectionID: 1}.append(nil), 0x00, 0x7E, 0x00, 0x02, 0xAB, 0xCD)
	if diff := cmp.Diff(want, b.Bytes()); diff != "" {
		t.Errorf("packet (-want +got):\n%s", diff)
	}
}
