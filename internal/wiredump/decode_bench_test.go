package wiredump

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rtypeproto/rtype"
)

// snapshotPacket is a packet of a 20-state Snapshot and a Pong, the
// datagram a server sends most (§8.1).
func snapshotPacket(tb testing.TB) []byte {
	s := rtype.Snapshot{ServerTick: 99}
	for i := range 20 {
		s.States = append(s.States, rtype.EntityState{NetworkID: uint32(i + 1), EntityType: 1, X: rtype.PosFromPixels(float64(i))})
	}
	b, err := rtype.PacketHeader{ConnectionID: 7, Sequence: 3}.AppendBinary(nil)
	if err == nil {
		b, err = rtype.AppendMessage(b, s)
	}
	if err == nil {
		b, err = rtype.AppendMessage(b, rtype.Pong{Timestamp: 5})
	}
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkDecodePacket decodes a Snapshot packet, as rtypecheck and the
// monitor do for every datagram of a run.
func BenchmarkDecodePacket(b *testing.B) {
	p := snapshotPacket(b)
	b.ReportAllocs()
	for b.Loop() {
		d := Decode(Packet, p)
		if d.Err != nil {
			b.Fatal(d.Err)
		}
	}
}

// BenchmarkDecodeTo decodes the Snapshot packet into the same Decoded each
// time, as a reader that keeps nothing of a datagram does.
func BenchmarkDecodeTo(b *testing.B) {
	p := snapshotPacket(b)
	var d Decoded
	b.ReportAllocs()
	for b.Loop() {
		DecodeTo(&d, Packet, p)
		if d.Err != nil {
			b.Fatal(d.Err)
		}
	}
}

// TestDecodeTo: decoding into a Decoded used before gives what Decode
// gives, with no allocation once its messages have room, whatever came
// before: a packet, a dropped one, a handshake datagram.
func TestDecodeTo(t *testing.T) {
	snap := snapshotPacket(t)
	short := snap[:len(snap)-1]
	hello := rtype.AppendHello(nil)
	var d Decoded
	for _, tc := range []struct {
		k Kind
		b []byte
	}{{Packet, snap}, {Packet, short}, {Handshake, hello}, {Packet, snap}, {Handshake, short}, {Packet, snap}} {
		DecodeTo(&d, tc.k, tc.b)
		want := Decode(tc.k, tc.b)
		if diff := cmp.Diff(want.Object(1, nil), d.Object(1, nil)); diff != "" {
			t.Errorf("%v of % x (-Decode +DecodeTo):\n%s", tc.k, head(tc.b), diff)
		}
		if want.Err != d.Err || len(want.Messages) != len(d.Messages) {
			t.Errorf("%v: error %v, %d messages; want %v, %d", tc.k, d.Err, len(d.Messages), want.Err, len(want.Messages))
		}
	}
	if n := testing.AllocsPerRun(100, func() { DecodeTo(&d, Packet, snap) }); n != 0 {
		t.Errorf("%v allocations a packet, want 0", n)
	}
}

func head(b []byte) []byte { return b[:min(len(b), 20)] }

// BenchmarkDecodeObject decodes the Snapshot packet and builds its output
// form, as rtypedump does for every datagram it prints.
func BenchmarkDecodeObject(b *testing.B) {
	p := snapshotPacket(b)
	b.ReportAllocs()
	for b.Loop() {
		d := Decode(Packet, p)
		if o := d.Object(1, nil); len(o) == 0 {
			b.Fatal("no fields")
		}
	}
}
