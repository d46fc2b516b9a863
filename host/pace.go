package host

import (
	"context"
	"time"
)

// pacer wakes a loop when each of its phases is due, a period apart on a
// fixed schedule. A wake-up that comes late, past the next phase's time,
// is followed at once by the phases it missed, so that each match keeps
// its ticks in step with the clock: a stall delays the Snapshots of the
// matches it covered, by as long, and no other's (§10: every 50 ms). A
// ticker would drop the ticks missed, and every match after would tick a
// period late from then on. Behind by more than an interval, the pacer
// starts its schedule again from now: those ticks are lost.
type pacer struct {
	period time.Duration
	// behind is how late a phase may be and still run.
	behind time.Duration
	next   time.Time
	timer  *time.Timer
}

// newPacer returns a pacer whose first phase is due first from now.
func newPacer(first, period, behind time.Duration) *pacer {
	t := time.NewTimer(period)
	t.Stop()
	return &pacer{period: period, behind: behind, next: time.Now().Add(first), timer: t}
}

// wait returns the time when the next phase is due, or false once ctx is
// done.
func (p *pacer) wait(ctx context.Context) (time.Time, bool) {
	if d := time.Until(p.next); d > 0 {
		p.timer.Reset(d)
		select {
		case <-ctx.Done():
			p.timer.Stop()
			return time.Time{}, false
		case <-p.timer.C:
		}
	} else if ctx.Err() != nil {
		return time.Time{}, false
	}
	now := time.Now()
	if p.next = p.next.Add(p.period); now.Sub(p.next) > p.behind {
		p.next = now.Add(p.period)
	}
	return now, true
}

func (p *pacer) stop() { p.timer.Stop() }
