package host

import "sync/atomic"

// Bucket bounds of the host's histograms, upper bounds inclusive as
// Prometheus's "le"; a last implicit bucket takes the rest. They are read
// by Listen and are not to be changed; at most 15 are used.
var (
	// RTTBounds, in seconds: loopback to intercontinental.
	RTTBounds = []float64{0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1}
	// TickBounds, in seconds: one match's tick, its datagrams included.
	TickBounds = []float64{5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01}
	// SnapshotBounds, in bytes, up to the 548 of a datagram (§2.2).
	SnapshotBounds = []float64{32, 64, 128, 192, 256, 320, 384, 448, 512, 548}
)

// maxBuckets is the room of a histogram: the most bounds above, plus one.
const maxBuckets = 16

// Histogram is a read of one of the host's histograms.
type Histogram struct {
	// Bounds are the buckets' upper bounds, shared and read-only.
	Bounds []float64
	// Counts[i] is the observations in bucket i, not cumulative;
	// Counts[len(Bounds)] those above every bound.
	Counts [maxBuckets]uint64
	// Count is the number of observations.
	Count uint64
	// Sum is the sum of the observations, in the bounds' unit.
	Sum float64
}

// histogram counts observations with atomics: one loop writes, a reader
// such as a scrape reads at any time. Values are integers of unit (such as
// nanoseconds) to keep the sum atomic.
type histogram struct {
	bounds []float64
	// limits are the bounds in unit, for an integer compare.
	limits [maxBuckets]uint64
	counts [maxBuckets]atomic.Uint64
	sum    atomic.Uint64
	unit   float64
}

func newHistogram(bounds []float64, unit float64) *histogram {
	bounds = bounds[:min(len(bounds), maxBuckets-1)]
	h := &histogram{bounds: bounds, unit: unit}
	for i, b := range bounds {
		h.limits[i] = uint64(b / unit)
	}
	return h
}

func (h *histogram) observe(v uint64) {
	i := 0
	for i < len(h.bounds) && v > h.limits[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sum.Add(v)
}

// addTo adds h's counts into r.
func (h *histogram) addTo(r *Histogram) {
	r.Bounds = h.bounds
	for i := 0; i <= len(h.bounds); i++ {
		c := h.counts[i].Load()
		r.Counts[i] += c
		r.Count += c
	}
	r.Sum += float64(h.sum.Load()) * h.unit
}
