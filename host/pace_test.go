//go:build go1.25

package host

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// §10: a loop that stalls for less than an interval runs the phases it
// missed at once and keeps its schedule: every phase of a second still
// runs within the second. One that stalls for longer starts again from
// now, losing what it missed.
func TestPacerCatchesUp(t *testing.T) {
	const period = 4 * time.Millisecond
	tests := []struct {
		name  string
		stall time.Duration
		// phases is how many phases run in the second after the start.
		phases int
	}{
		{"no stall", 0, 250},
		{"a 10 ms stall", 10 * time.Millisecond, 250},
		{"a 15 ms stall", 15 * time.Millisecond, 250},
		// From 40 ms to 70: the phase due at 44 runs at 70, those of 48
		// to 68 are lost, and the schedule goes on from 74.
		{"a 30 ms stall, over the 16 ms allowed", 30 * time.Millisecond, 243},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				p := newPacer(period, period, 4*period)
				defer p.stop()
				n := 0
				for {
					now, ok := p.wait(context.Background())
					if !ok || now.Sub(start) > time.Second {
						break
					}
					if n++; n == 10 {
						time.Sleep(tt.stall)
					}
				}
				if n != tt.phases {
					t.Fatalf("%d phases in a second, want %d", n, tt.phases)
				}
			})
		})
	}
}

// wait returns false once its context is done, at once or while it waits.
func TestPacerStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPacer(time.Millisecond, time.Millisecond, time.Second)
		defer p.stop()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond+time.Microsecond)
		defer cancel()
		n := 0
		for {
			if _, ok := p.wait(ctx); !ok {
				break
			}
			n++
		}
		if n != 10 {
			t.Fatalf("%d phases before the context ended, want 10", n)
		}
		if _, ok := p.wait(ctx); ok {
			t.Fatal("wait went on with its context done")
		}
	})
}
