package wiredump

import (
	"testing"

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
