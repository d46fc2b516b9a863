package conformance

import (
	"testing"
	"time"
)

// TestAliveFor: the liveness probe waits 2 s against a quick server, and
// longer against one whose answers the ladder saw come slowly, at most
// three times as long.
func TestAliveFor(t *testing.T) {
	for _, tc := range []struct {
		slowest, want time.Duration
	}{
		{0, 2 * time.Second},
		{50 * time.Millisecond, 2 * time.Second},
		{125 * time.Millisecond, 2 * time.Second},
		{250 * time.Millisecond, 4 * time.Second},
		{300 * time.Millisecond, 4800 * time.Millisecond},
		{time.Second, 6 * time.Second},
		{time.Minute, 6 * time.Second},
	} {
		l := &ladder{slowest: tc.slowest}
		if got := l.aliveFor(); got != tc.want {
			t.Errorf("slowest answer %v: aliveFor() = %v, want %v", tc.slowest, got, tc.want)
		}
	}
	if got := (*ladder)(nil).aliveFor(); got != aliveWait {
		t.Errorf("no ladder: aliveFor() = %v, want %v", got, aliveWait)
	}
}
