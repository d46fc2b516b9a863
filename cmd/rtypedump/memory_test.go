package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// hostileCapture is a capture made to grow a dumper's state: garbage from
// many distinct client addresses, then one connection whose packets carry
// random acks in both directions.
func hostileCapture(t *testing.T, addresses, packets int) []byte {
	t.Helper()
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	at := captureEpoch
	next := func() time.Time { at = at.Add(time.Microsecond); return at }
	list := make([]captured, 0, addresses+packets+1)
	for i := range addresses {
		src := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), uint16(1024+i>>16))
		list = append(list, captured{time: next(), src: src, dst: server, data: []byte{0xde, 0xad}})
	}
	client := netip.MustParseAddrPort("10.2.0.1:50000")
	list = append(list, captured{time: next(), src: server, dst: client, data: rtype.AppendWelcome(nil, 7)})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range packets {
		h := rtype.PacketHeader{ConnectionID: 7, Sequence: uint32(i/2 + 1), Ack: rng.Uint32(), AckBits: rng.Uint32()}
		b, err := h.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		src, dst := client, server
		if i%2 == 1 {
			src, dst = server, client
		}
		list = append(list, captured{time: next(), src: src, dst: dst, data: b})
	}
	var buf bytes.Buffer
	if err := writePcap(&buf, list); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// retainedHeap returns how many heap bytes a dumper holds after it read the
// whole capture, with and without -stats, with -port 4242 or finding the
// server in a stream (holdback.go).
func retainedHeap(t *testing.T, capture []byte, withStats, auto bool) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	o := options{json: true, stats: withStats, port: rtype.DefaultPort}
	var in io.Reader = bytes.NewReader(capture)
	if auto {
		o.port, in = 0, pipe(capture)
	}
	d := newDumper(o, io.Discard)
	if err := d.captureInput(in); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(d)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// A capture of many client addresses and random acks must not make the
// dumper's state grow with it: the per-address state of §3, the
// per-connection totals and the ack bookkeeping of §5.1 are bounded, and
// nothing is collected without -stats.
func TestHostileCaptureBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 60,000-datagram capture")
	}
	capture := hostileCapture(t, 30000, 30000)
	for _, tt := range []struct {
		stats, auto bool
		limit       uint64
	}{
		{false, false, 1 << 20},
		{true, false, 12 << 20},
		{false, true, 1 << 20},
		{true, true, 12 << 20},
	} {
		if got := retainedHeap(t, capture, tt.stats, tt.auto); got > tt.limit {
			t.Errorf("stats=%v auto=%v: the dumper holds %.1f MB after a %.1f MB capture, want at most %.1f MB",
				tt.stats, tt.auto, float64(got)/(1<<20), float64(len(capture))/(1<<20), float64(tt.limit)/(1<<20))
		}
	}
}

// Past maxConns client addresses, -stats sums the datagrams of the others in
// one row, so that every datagram is still counted.
func TestStatsFoldsConnectionsPastLimit(t *testing.T) {
	const extra = 10
	capture := hostileCapture(t, maxConns+extra, 0)
	d := newDumper(options{stats: true, port: rtype.DefaultPort}, io.Discard)
	if err := d.captureInput(bytes.NewReader(capture)); err != nil {
		t.Fatal(err)
	}
	list := d.stats.objects(true)
	if len(list) != maxConns+1 {
		t.Fatalf("%d rows, want %d", len(list), maxConns+1)
	}
	last := list[len(list)-1]
	client, _ := last.Get("client")
	to, _ := last.Get("toServer")
	from, _ := last.Get("toClient")
	n, _ := to.(wiredump.Object).Get("datagrams")
	m, _ := from.(wiredump.Object).Get("datagrams")
	// The extra addresses sent one datagram each; the Welcome went to one
	// more address, also past the limit.
	if client != "other addresses" || n != extra || m != 1 {
		t.Fatalf("last row: client %v with %v datagrams to the server and %v to clients, want \"other addresses\" with %d and 1", client, n, m, extra)
	}
}
