package qlog_test

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/qlog"
	"github.com/rtypeproto/rtype/session"
)

// BenchmarkDir_Trace writes a received packet with a Snapshot of 10
// states, the commonest event of a game, and, as the baseline, a lost
// packet, the smallest: the writer's cost per event.
func BenchmarkDir_Trace(b *testing.B) {
	snap := rtype.Snapshot{ServerTick: 9}
	for i := range 10 {
		snap.States = append(snap.States, rtype.EntityState{NetworkID: uint32(i + 1), X: rtype.Pos16(100 * i), Y: 300})
	}
	var bld rtype.Builder
	_ = bld.Reset(rtype.PacketHeader{ConnectionID: 7, Sequence: 12, Ack: 11, AckBits: 0xffffffff})
	_ = rtype.Add(&bld, snap)
	pkt := bld.Bytes()
	events := map[string]session.TraceEvent{
		"lost":     {Kind: session.TracePacketLost, Sequence: 3},
		"snapshot": {Kind: session.TracePacketReceived, Datagram: pkt},
	}
	for _, name := range []string{"lost", "snapshot"} {
		b.Run(name, func(b *testing.B) {
			d, err := qlog.NewDir(b.TempDir(), qlog.Client)
			if err != nil {
				b.Fatal(err)
			}
			e := events[name]
			e.Peer, e.Time = serverAddr, time.Unix(0, 0)
			for b.Loop() {
				d.Trace(&e)
			}
			if err := d.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
