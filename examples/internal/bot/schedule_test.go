package bot

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The progress shows each tick at its place on the schedule, an exact
// multiple of the interval, whenever the tick came: early, late, or after
// the ticker dropped one for a slow reader.
func TestScheduleFollow(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := Schedule{Start: start, Every: time.Second}
	ms := func(v int) time.Time { return start.Add(time.Duration(v) * time.Millisecond) }
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		for _, tick := range []time.Time{ms(1003), ms(1998), ms(3040), ms(3100), ms(5001), ms(6000)} {
			ticks <- tick
		}
		close(done)
	}()
	var got []string
	s.Follow(ticks, done, func(at time.Duration) { got = append(got, s.Label(at)) })
	want := []string{"1.0s", "2.0s", "3.0s", "5.0s", "6.0s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("places shown (-want +got):\n%s", diff)
	}
}

func TestScheduleLabel(t *testing.T) {
	tests := []struct {
		every, at time.Duration
		want      string
	}{
		{time.Second, 9 * time.Second, "9.0s"},
		{200 * time.Millisecond, 1400 * time.Millisecond, "1.4s"},
		{50 * time.Millisecond, 150 * time.Millisecond, "0.15s"},
		{333 * time.Millisecond, 999 * time.Millisecond, "0.999s"},
	}
	for _, tc := range tests {
		if got := (Schedule{Every: tc.every}).Label(tc.at); got != tc.want {
			t.Errorf("every %v: Label(%v) = %q, want %q", tc.every, tc.at, got, tc.want)
		}
	}
}
