package session

// Bucket bounds of the histograms in [Counters] and [ServerStats], upper
// bounds inclusive as Prometheus's "le"; a last bucket takes the rest. They
// are shared by every side's stats and are not to be changed.
var (
	// RTTBounds, in seconds: loopback to intercontinental.
	RTTBounds = []float64{0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1}
	// SnapshotBounds, in bytes, up to the 548 of a datagram (§2.2).
	SnapshotBounds = []float64{32, 64, 128, 192, 256, 320, 384, 448, 512, 548}
)

// MaxBuckets is the room of a [Histogram]: at most MaxBuckets−1 bounds.
const MaxBuckets = 16

// Histogram counts observations in buckets of fixed upper bounds, as a
// Prometheus histogram does: a plain value, copied and summed without
// allocating.
type Histogram struct {
	// Bounds are the buckets' upper bounds, shared and read-only; bounds
	// past MaxBuckets−1 are not used.
	Bounds []float64
	// Counts[i] is the observations in bucket i, not cumulative;
	// Counts[len(Bounds)] those above every bound.
	Counts [MaxBuckets]uint64
	// Count is the number of observations.
	Count uint64
	// Sum is the sum of the observations, in the bounds' unit.
	Sum float64
}

// Observe counts v in its bucket.
func (h *Histogram) Observe(v float64) {
	n := min(len(h.Bounds), MaxBuckets-1)
	i := 0
	for i < n && v > h.Bounds[i] {
		i++
	}
	h.Counts[i]++
	h.Count++
	h.Sum += v
}

// Add adds o's observations to h, whose bounds must be o's or unset.
func (h *Histogram) Add(o *Histogram) {
	if h.Bounds == nil {
		h.Bounds = o.Bounds
	}
	for i, c := range o.Counts {
		h.Counts[i] += c
	}
	h.Count += o.Count
	h.Sum += o.Sum
}
