package netem

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// Defaults for the fields whose zero value means "the usual".
const (
	DefaultReorderDelay = 20 * time.Millisecond
	DefaultQueue        = 64 << 10 // bytes
)

// Errors of [Params.Validate]: one per field, so a message names what is wrong.
var (
	ErrLoss         = errors.New("netem: loss must be in [0, 1]")
	ErrBurst        = errors.New("netem: burst must be 0, 1 or more, and finite")
	ErrBurstShort   = errors.New("netem: loss too high for that burst length: burst must be at least loss/(1-loss)")
	ErrDelay        = errors.New("netem: delay must not be negative")
	ErrJitter       = errors.New("netem: jitter must not be negative")
	ErrReorder      = errors.New("netem: reorder must be in [0, 1]")
	ErrReorderDelay = errors.New("netem: reorder delay must not be negative")
	ErrDup          = errors.New("netem: dup must be in [0, 1]")
	ErrRate         = errors.New("netem: rate must not be negative")
	ErrQueue        = errors.New("netem: queue must not be negative")
	ErrBlackout     = errors.New("netem: blackout needs 0 < FOR < EVERY")
)

// Params are the impairments of one direction.
type Params struct {
	Loss         float64       // fraction of datagrams lost, 0..1
	Burst        float64       // mean loss burst in datagrams; 0 or 1: independent losses, > 1: Gilbert–Elliott
	Delay        time.Duration // fixed one-way delay
	Jitter       time.Duration // delay varies uniformly in [Delay−Jitter, Delay+Jitter], floored at 0
	Reorder      float64       // fraction of datagrams held back by ReorderDelay
	ReorderDelay time.Duration // 0: DefaultReorderDelay
	Dup          float64       // fraction of datagrams sent twice
	Rate         int64         // bits per second, 0: no cap
	Queue        int64         // bytes waiting for the rate cap, 0: DefaultQueue
	Blackout     Blackout      // scheduled outages, zero: none
}

// Validate reports the first field out of range, as one of the Err sentinels.
func (p Params) Validate() error {
	switch {
	case !unit(p.Loss):
		return ErrLoss
	case math.IsNaN(p.Burst) || math.IsInf(p.Burst, 0) || p.Burst < 0 || (p.Burst > 0 && p.Burst < 1):
		return ErrBurst
	case p.Burst > 1 && p.Loss < 1 && p.Loss > p.Burst*(1-p.Loss):
		// P(good→bad) = loss/(burst·(1−loss)) would exceed 1.
		return ErrBurstShort
	case p.Delay < 0:
		return ErrDelay
	case p.Jitter < 0:
		return ErrJitter
	case !unit(p.Reorder):
		return ErrReorder
	case p.ReorderDelay < 0:
		return ErrReorderDelay
	case !unit(p.Dup):
		return ErrDup
	case p.Rate < 0:
		return ErrRate
	case p.Queue < 0:
		return ErrQueue
	}
	return p.Blackout.validate()
}

// unit reports whether f is a fraction in [0, 1] (false for NaN).
func unit(f float64) bool { return f >= 0 && f <= 1 }

// None reports whether p impairs nothing, so datagrams can be forwarded at once.
func (p Params) None() bool {
	return p.Loss == 0 && p.Delay == 0 && p.Jitter == 0 && p.Reorder == 0 &&
		p.Dup == 0 && p.Rate == 0 && p.Blackout == Blackout{}
}

// String describes p for people: "loss 2% in bursts of 3, delay 100ms ± 30ms,
// rate 1.5 Mbit/s, queue 64 KiB", or "none". Defaults are shown applied.
func (p Params) String() string {
	var parts []string
	if p.Loss > 0 {
		s := "loss " + percent(p.Loss)
		if p.Burst > 1 {
			s += " in bursts of " + strconv.FormatFloat(p.Burst, 'g', 4, 64)
		}
		parts = append(parts, s)
	}
	if p.Delay > 0 || p.Jitter > 0 {
		s := "delay " + p.Delay.String()
		if p.Jitter > 0 {
			s += " ± " + p.Jitter.String()
		}
		parts = append(parts, s)
	}
	if p.Reorder > 0 {
		parts = append(parts, "reorder "+percent(p.Reorder)+" by "+p.reorderDelay().String())
	}
	if p.Dup > 0 {
		parts = append(parts, "dup "+percent(p.Dup))
	}
	if p.Rate > 0 {
		parts = append(parts, "rate "+rateText(p.Rate), "queue "+sizeText(p.queue()))
	}
	if !p.Blackout.zero() {
		parts = append(parts, "blackout "+p.Blackout.For.String()+" every "+p.Blackout.Every.String())
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// percent formats a fraction as a percentage with at most 4 significant digits.
func percent(f float64) string { return strconv.FormatFloat(f*100, 'g', 4, 64) + "%" }

// queue is the queue bound with its default applied.
func (p Params) queue() int64 {
	if p.Queue == 0 {
		return DefaultQueue
	}
	return p.Queue
}

// reorderDelay is the reorder delay with its default applied.
func (p Params) reorderDelay() time.Duration {
	if p.ReorderDelay == 0 {
		return DefaultReorderDelay
	}
	return p.ReorderDelay
}
