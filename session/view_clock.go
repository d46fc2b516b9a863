package session

import "time"

// viewClock is a View's render timeline on the server's tick clock (§8.1,
// §10), in unwrapped ticks. Each Snapshot round's first arrival is a
// sample: its tick minus its arrival time in ticks is the server's clock
// offset, later by the network delay of that packet. The least delayed
// sample of a window, the largest offset, gives the server's clock; the
// spread of the others is the jitter the buffer must cover. The render
// time runs at the local clock's pace, a buffer behind that estimate, and
// closes any gap by catching up 2% faster or slowing 4%, never jumping,
// unless the gap exceeds the whole buffer (the clock was re-estimated, as
// after a stall): then it is re-clamped at once.
type viewClock struct {
	cfg ViewConfig
	win [clockWindow]arrival
	n   int // samples in win
	at  int // next slot of win

	t0     time.Time // time of the first sample, origin of the offsets
	newest int64     // newest round's tick

	// Measured over the window, in ticks.
	best     float64 // largest offset
	jitter   float64 // spread of the offsets below best, stalls left out
	interval float64 // Snapshot interval
	loss     float64 // share of rounds missing, stalls left out

	delay   float64 // buffer the render time aims at behind the clock
	render  float64 // render time
	last    time.Time
	running bool
}

// arrival is one round's first Snapshot: its tick and clock offset.
type arrival struct {
	tick   int64
	offset float64
}

const (
	// clockWindow is the number of rounds measured: 3.2 s at 20 a second.
	clockWindow = 64
	// defaultInterval is §8.1's Snapshot interval, every 3 ticks, used
	// until two rounds are measured.
	defaultInterval = 3
	// stallTicks: an arrival later than this, or a gap longer, is a stall,
	// not jitter or loss, and does not raise the buffer (250 ms).
	stallTicks = 15
	// The render time's pace while catching up and slowing down, and the
	// gap in ticks within which it runs at the local clock's.
	catchUp   = 1.02
	slowDown  = 0.96
	tolerance = 0.25
)

func (c *viewClock) init(cfg ViewConfig) {
	c.cfg = cfg
	c.interval = defaultInterval
	c.delay = c.target()
}

// server returns the estimate of the server's clock at now, in ticks.
func (c *viewClock) server(now time.Time) float64 {
	return c.best + ticks(now.Sub(c.t0))
}

// arrived takes the Snapshot of tick k received at now; only the first of
// a newer round is a sample.
func (c *viewClock) arrived(k int64, now time.Time) {
	if c.n == 0 {
		c.t0 = now
	} else if k <= c.newest {
		return
	}
	c.newest = k
	c.win[c.at] = arrival{tick: k, offset: float64(k) - ticks(now.Sub(c.t0))}
	c.at = (c.at + 1) % clockWindow
	c.n = min(c.n+1, clockWindow)
	c.measure()
	c.delay = c.target()
}

// measure computes best, jitter, interval and loss over the window.
func (c *viewClock) measure() {
	first := (c.at - c.n + clockWindow) % clockWindow
	c.best = c.win[first].offset
	interval := int64(0)
	for i := 1; i < c.n; i++ {
		a, b := c.win[(first+i-1)%clockWindow], c.win[(first+i)%clockWindow]
		c.best = max(c.best, b.offset)
		if d := b.tick - a.tick; d > 0 && (interval == 0 || d < interval) {
			interval = d
		}
	}
	if interval > 0 {
		c.interval = float64(min(interval, stallTicks))
	}
	c.jitter = 0
	rounds, missing := 0.0, 0.0
	for i := range c.n {
		a := c.win[(first+i)%clockWindow]
		if late := c.best - a.offset; late <= stallTicks {
			c.jitter = max(c.jitter, late)
		}
		if i == 0 {
			continue
		}
		gap := float64(a.tick - c.win[(first+i-1)%clockWindow].tick)
		if gap <= stallTicks {
			rounds += gap / c.interval
			missing += gap/c.interval - 1
		}
	}
	c.loss = 0
	if rounds > 0 {
		c.loss = missing / rounds
	}
}

// target is the buffer to aim at: two Snapshot intervals, so that one
// lost Snapshot costs at most a short extrapolation; or one interval plus
// the jitter, if larger; an interval more when 15% of the Snapshots are
// lost, two when 30% are (5% costs a few short extrapolations, exact for
// a straight mover, not a raised delay); within MaxDelay.
func (c *viewClock) target() float64 {
	if c.cfg.Delay > 0 {
		return ticks(c.cfg.Delay)
	}
	d := max(2*c.interval, c.interval+c.jitter+0.5)
	switch {
	case c.loss >= 0.3:
		d += 2 * c.interval
	case c.loss >= 0.15:
		d += c.interval
	}
	return min(d, ticks(c.cfg.MaxDelay))
}

// advance moves the render time to now and reports whether it runs.
func (c *viewClock) advance(now time.Time) bool {
	if c.n == 0 {
		return false
	}
	goal := c.server(now) - c.delay
	if !c.running {
		c.render, c.last, c.running = goal, now, true
		return true
	}
	step := max(ticks(now.Sub(c.last)), 0)
	c.last = now
	gap := goal - (c.render + step)
	switch {
	case gap > c.delay || gap < -c.delay:
		c.render = goal
	case gap > tolerance:
		c.render = min(c.render+step*catchUp, goal)
	case gap < -tolerance:
		c.render = max(c.render+step*slowDown, goal)
	default:
		c.render += step
	}
	return true
}
