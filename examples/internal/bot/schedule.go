package bot

import (
	"fmt"
	"time"
)

// Schedule is when progress is shown: every Every from Start. A progress
// line names its tick's place on the schedule, an exact multiple of Every,
// rather than a time measured when the line is printed, which drifts with
// the load of the machine.
type Schedule struct {
	// Start is when the ticker started.
	Start time.Time
	// Every is the ticker's period.
	Every time.Duration
}

// At returns the multiple of Every nearest to tick's time since Start.
func (s Schedule) At(tick time.Time) time.Duration {
	if s.Every <= 0 {
		return tick.Sub(s.Start)
	}
	return (tick.Sub(s.Start) + s.Every/2) / s.Every * s.Every
}

// Label formats at as seconds with the decimals Every needs: "3.0s" every
// second or 200 ms, "0.15s" every 50 ms.
func (s Schedule) Label(at time.Duration) string {
	decimals := 3
	switch {
	case s.Every%(100*time.Millisecond) == 0:
		decimals = 1
	case s.Every%(10*time.Millisecond) == 0:
		decimals = 2
	}
	return fmt.Sprintf("%.*fs", decimals, at.Seconds())
}

// Follow calls show with the place on the schedule of each tick read from
// ticks, until done is closed. A tick that falls on the place of the one
// before, delivered late, is skipped, so that places only increase.
func (s Schedule) Follow(ticks <-chan time.Time, done <-chan struct{}, show func(at time.Duration)) {
	last := time.Duration(-1)
	for {
		select {
		case <-done:
			return
		case tick := <-ticks:
			if at := s.At(tick); at > last {
				last = at
				show(at)
			}
		}
	}
}
