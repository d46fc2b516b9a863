package main

import (
	"math"
	"testing"
	"time"
	"unsafe"
)

// TestBuckets: each duration falls in a bucket whose upper edge is above
// it by at most the tier's width, 0.1 ms around 50–70 ms, and buckets are
// in order.
func TestBuckets(t *testing.T) {
	if got := bucket(20*time.Second) + 1; got != int(numBuckets) {
		t.Fatalf("%d buckets to 20 s and beyond, numBuckets %d", got, numBuckets)
	}
	widths := []struct {
		from, to, width time.Duration
	}{
		{0, 10 * time.Millisecond, 20 * time.Microsecond},
		{10 * time.Millisecond, 200 * time.Millisecond, 100 * time.Microsecond},
		{200 * time.Millisecond, 2 * time.Second, 2 * time.Millisecond},
		{2 * time.Second, 20 * time.Second, 20 * time.Millisecond},
	}
	for _, w := range widths {
		for d := w.from; d < w.to; d += w.width / 7 {
			up := upper(bucket(d))
			if up <= d || up-d > w.width {
				t.Fatalf("%v: upper edge %v, want within %v above", d, up, w.width)
			}
		}
	}
	last := -1
	for d := time.Duration(0); d < 21*time.Second; d += 37 * time.Microsecond {
		b := bucket(d)
		if b < last || b >= int(numBuckets) {
			t.Fatalf("%v: bucket %d after %d", d, b, last)
		}
		last = b
	}
	for _, d := range []time.Duration{-time.Second, math.MinInt64, math.MaxInt64, time.Hour} {
		if b := bucket(d); b < 0 || b >= int(numBuckets) {
			t.Errorf("%v: bucket %d out of range", d, b)
		}
	}
}

// TestQuantiles: percentiles are the bucket's upper edge, never below the
// true one, within 0.1 ms of it around 50 ms, and max is exact.
func TestQuantiles(t *testing.T) {
	var h histogram
	if _, ok := h.quantile(0.5); ok {
		t.Fatal("a quantile without samples")
	}
	// 1000 intervals of 50.000 to 50.999 ms, and 5 of 70.0123 ms.
	for i := range 1000 {
		h.add(50*time.Millisecond + time.Duration(i)*time.Microsecond)
	}
	for range 5 {
		h.add(70*time.Millisecond + 12300*time.Nanosecond)
	}
	check := func(q float64, want time.Duration) {
		t.Helper()
		got, ok := h.quantile(q)
		if !ok || got < want || got-want > 100*time.Microsecond {
			t.Errorf("q%v = %v, want %v to 0.1 ms above", q, got, want)
		}
	}
	check(0.5, 50502*time.Microsecond)
	check(0.99, 50994*time.Microsecond)
	check(0.999, 70*time.Millisecond+12300)
	if got, _ := h.quantile(1); got != 70*time.Millisecond+12300 {
		t.Errorf("max %v, want 70.0123 ms exactly", got)
	}
	if n := h.count(); n != 1005 {
		t.Errorf("count %d, want 1005", n)
	}

	var all histogram
	all.merge(&h)
	all.merge(&h)
	all.add(3 * time.Hour)
	if n := all.count(); n != 2011 {
		t.Errorf("merged count %d, want 2011", n)
	}
	if got, _ := all.quantile(1); got != 3*time.Hour {
		t.Errorf("merged max %v, want 3h", got)
	}
	if got, _ := all.quantile(0.5); got != 50600*time.Microsecond {
		t.Errorf("merged p50 %v", got)
	}
}

// TestHistogramSize: the memory is fixed, whatever the samples.
func TestHistogramSize(t *testing.T) {
	if s := unsafe.Sizeof(histogram{}); s > 20<<10 {
		t.Errorf("a histogram takes %d bytes", s)
	}
	var h histogram
	h.counts[7] = math.MaxUint32
	h.add(7 * 20 * time.Microsecond)
	h.merge(&h)
	if h.counts[7] != math.MaxUint32 {
		t.Errorf("a full bucket holds %d", h.counts[7])
	}
}
