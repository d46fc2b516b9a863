package session

import (
	"encoding/binary"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/rtypeproto/rtype"
)

// snapshotDelivery is a Playing client that knows 47 entities, the
// 47-state Snapshot datagram listing them, and a function that delivers
// the next copy of it (a new sequence, a new serverTick) and drains the
// events, as a game does every frame.
func snapshotDelivery(t testing.TB) (deliver func(), datagram []byte) {
	c := NewClient(serverAddr, ClientConfig{}, discard)
	c.Update(t0)
	c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
	states := make([]rtype.EntityState, rtype.MaxSnapshotStates)
	seq := uint32(0)
	for i := range states {
		id := uint32(i + 1)
		states[i] = rtype.EntityState{NetworkID: id, X: rtype.Pos16(1000 + i), Y: 0x8000}
		seq++
		c.Receive(packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq}, create(id, 1)), serverAddr, t0)
	}
	snap := packet(t, rtype.PacketHeader{ConnectionID: 5}, rtype.Snapshot{ServerTick: 3, States: states})
	tick := uint32(3)
	return func() {
		seq++
		tick += 3
		binary.BigEndian.PutUint32(snap[4:8], seq)
		binary.BigEndian.PutUint32(snap[20:24], tick)
		c.Receive(snap, serverAddr, t0)
		for range c.Events() {
		}
	}, slices.Clone(snap)
}

// decodeSnapshot is the codec's share of the same work: check the
// datagram, split its message, decode the Snapshot (§5.3, §8.1).
func decodeSnapshot(b []byte, s *rtype.Snapshot) error {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return err
	}
	m, _, _ := rtype.SplitMessage(p.MessageArea())
	return s.UnmarshalBinary(m.Payload)
}

// BenchmarkClientSnapshotRatio times a 47-state Snapshot through a Playing
// Client, events drained, against the codec's decode of the same
// datagram, in alternating batches, and reports the median per-batch
// ratio (x-decode): what the session adds to the codec.
func BenchmarkClientSnapshotRatio(b *testing.B) {
	deliver, datagram := snapshotDelivery(b)
	snap := rtype.Snapshot{States: make([]rtype.EntityState, 0, rtype.MaxSnapshotStates)}
	var ratios []float64
	for b.Loop() {
		t1 := time.Now()
		for range 1000 {
			if err := decodeSnapshot(datagram, &snap); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		for range 1000 {
			deliver()
		}
		ratios = append(ratios, float64(time.Since(t2))/float64(t2.Sub(t1)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-decode")
}

func TestClient_8_1_SnapshotDeliveryDoesNotAllocate(t *testing.T) {
	deliver, _ := snapshotDelivery(t)
	for range 10 {
		deliver()
	}
	if n := testing.AllocsPerRun(500, deliver); n != 0 {
		t.Errorf("%v allocations per Snapshot, want 0", n)
	}
}

// Events are small plain values, cheap to queue and poll: at most 96
// bytes on a 64-bit platform.
func TestEventIsSmall(t *testing.T) {
	if size := unsafe.Sizeof(Event{}); unsafe.Sizeof(uintptr(0)) == 8 && size > 96 {
		t.Errorf("Event is %d bytes, want at most 96", size)
	}
}
