package main

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"time"

	"github.com/rtypeproto/rtype"
)

// rareMutants break a rule of every datagram (§2.2, §5.1, §5.2, §5.3,
// §8.1) now and then only, as faults in the field do: on every 10th
// Snapshot packet the server sends, once a second, or on 1 datagram in
// 100, whichever client it goes to. A case that watches a window of its
// own misses most of them; the run's monitor sees them all.
func rareMutants() []mutant {
	return []mutant{
		{name: "every 10th Snapshot packet also sent at 549 bytes", catch: []string{"2.2/1"}, also: []string{"8.1/5"},
			out: everyNthSnapshot(10, func(w *wire, to netip.AddrPort, b []byte) bool {
				w.send(to, padded(b, rtype.MaxDatagramSize+1))
				return true
			})},
		{name: "a packet a second also sent with another connection's id", catch: []string{"5.1/4"},
			out: oncePer(time.Second, func(w *wire, to netip.AddrPort, b []byte) bool {
				c := slices.Clone(b)
				binary.BigEndian.PutUint32(c, binary.BigEndian.Uint32(c)+1)
				w.send(to, c)
				return true
			})},
		{name: "1 datagram in 100 sent twice", catch: []string{"5.2/1"},
			out: everyNthPacket(100, func(w *wire, to netip.AddrPort, b []byte) bool {
				w.send(to, slices.Clone(b))
				return true
			})},
		{name: "every 10th Snapshot packet also sent with a message overrunning it", catch: []string{"5.3/7"},
			out: everyNthSnapshot(10, func(w *wire, to netip.AddrPort, b []byte) bool {
				offs := msgOffsets(b)
				c := slices.Clone(b)
				last := offs[len(offs)-1]
				binary.BigEndian.PutUint16(c[last+2:], binary.BigEndian.Uint16(c[last+2:])+1)
				w.send(to, c)
				return true
			})},
		// Two bugs: the Snapshot packets the suite's players drop for
		// their id do not void what 7.1/3 saw the ship do.
		{name: "every 10th Snapshot packet with another connection's id, and stale Inputs accepted", catch: []string{"5.1/4", "7.1/3"},
			in: input(renumberInputs),
			out: everyNthSnapshot(10, func(_ *wire, _ netip.AddrPort, b []byte) bool {
				binary.BigEndian.PutUint32(b, binary.BigEndian.Uint32(b)+1)
				return true
			})},
		{name: "a Snapshot a second lists its first entity twice", catch: []string{"8.1/4"},
			out: oncePer(time.Second, func(_ *wire, _ netip.AddrPort, b []byte) bool {
				q, ok := carries(b, rtype.TypeSnapshot)
				if ok && len(q) >= rtype.SnapshotHeaderSize+2*11 {
					copy(q[17:21], q[6:10])
				}
				return true
			})},
	}
}

// everyNthSnapshot applies f to every nth connected packet carrying a
// Snapshot, counted over every client of the server.
func everyNthSnapshot(n int, f func(w *wire, to netip.AddrPort, b []byte) bool) rewrite {
	count := 0
	return inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
		if _, ok := carries(b, rtype.TypeSnapshot); !ok || !isPacket(b) {
			return true
		}
		if count++; count%n != 0 {
			return true
		}
		return f(w, to, b)
	})
}

// everyNthPacket applies f to every nth connected packet the server
// sends, counted over every client.
func everyNthPacket(n int, f func(w *wire, to netip.AddrPort, b []byte) bool) rewrite {
	count := 0
	return inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
		if !isPacket(b) {
			return true
		}
		if count++; count%n != 0 {
			return true
		}
		return f(w, to, b)
	})
}

// oncePer applies f to the first connected packet carrying a Snapshot
// after each period d.
func oncePer(d time.Duration, f func(w *wire, to netip.AddrPort, b []byte) bool) rewrite {
	var next time.Time
	return inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
		now := time.Now()
		if _, ok := carries(b, rtype.TypeSnapshot); !ok || !isPacket(b) || now.Before(next) {
			return true
		}
		next = now.Add(d)
		return f(w, to, b)
	})
}
