package main

import (
	"math"
	"time"
)

// A histogram counts durations in fixed buckets, so that its memory, 17 kB,
// is the same after a minute or a day. Resolution:
//
//	20 µs wide   below 10 ms   (loopback and LAN round trips)
//	0.1 ms wide  below 200 ms  (Snapshot intervals, 50 ms by §10, and most
//	                            round trips)
//	2 ms wide    below 2 s
//	20 ms wide   below 20 s    (a silent server closes at 10 s, §13.3)
//	one bucket   beyond
//
// A percentile is the upper edge of its bucket, capped at the largest
// value, which is kept exactly: it is never below the true one, and above
// it by less than a bucket, 0.1 ms around 50–70 ms. Counts saturate at
// 2³²−1 per bucket, years of samples.
type histogram struct {
	counts [numBuckets]uint32
	max    time.Duration
}

// tier is a run of buckets of one width, up to (not including) upTo.
type tier struct{ width, upTo time.Duration }

var tiers = [...]tier{
	{20 * time.Microsecond, 10 * time.Millisecond},
	{100 * time.Microsecond, 200 * time.Millisecond},
	{2 * time.Millisecond, 2 * time.Second},
	{20 * time.Millisecond, 20 * time.Second},
}

// numBuckets is the buckets of every tier, plus the one beyond.
const numBuckets = 10*time.Millisecond/(20*time.Microsecond) +
	190*time.Millisecond/(100*time.Microsecond) +
	1800*time.Millisecond/(2*time.Millisecond) +
	18*time.Second/(20*time.Millisecond) + 1

// bucket returns the bucket of d.
func bucket(d time.Duration) int {
	d = max(d, 0)
	base, low := 0, time.Duration(0)
	for _, t := range tiers {
		if d < t.upTo {
			return base + int((d-low)/t.width)
		}
		base += int((t.upTo - low) / t.width)
		low = t.upTo
	}
	return base
}

// upper returns the upper edge of bucket i, MaxInt64 for the last.
func upper(i int) time.Duration {
	low := time.Duration(0)
	for _, t := range tiers {
		n := int((t.upTo - low) / t.width)
		if i < n {
			return low + time.Duration(i+1)*t.width
		}
		i -= n
		low = t.upTo
	}
	return math.MaxInt64
}

// add counts one sample.
func (h *histogram) add(d time.Duration) {
	d = max(d, 0)
	if i := bucket(d); h.counts[i] < math.MaxUint32 {
		h.counts[i]++
	}
	h.max = max(h.max, d)
}

// merge adds o's samples to h.
func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] = uint32(min(uint64(h.counts[i])+uint64(c), math.MaxUint32))
	}
	h.max = max(h.max, o.max)
}

// count returns the number of samples.
func (h *histogram) count() uint64 {
	var n uint64
	for _, c := range h.counts {
		n += uint64(c)
	}
	return n
}

// quantile returns the q-quantile (0 < q ≤ 1), and false without samples.
func (h *histogram) quantile(q float64) (time.Duration, bool) {
	n := h.count()
	if n == 0 {
		return 0, false
	}
	rank := uint64(math.Ceil(q * float64(n)))
	rank = min(max(rank, 1), n)
	var seen uint64
	for i, c := range h.counts {
		seen += uint64(c)
		if seen >= rank {
			return min(upper(i), h.max), true
		}
	}
	return h.max, true
}
