package host

import (
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// ReadMetrics never waits for a match's tick: a game stuck in its tick
// delays its own loop, not a reader of the metrics, which gets the
// counters as the last tick left them.
func TestReadMetricsDuringATick(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	r := start(t, Config{Loops: 1, New: func(int, netip.AddrPort) Match {
		return Match{Tick: func(*session.Server, time.Time) {
			once.Do(func() {
				close(entered)
				<-release
			})
		}}
	}})
	defer close(release)
	<-entered
	read := make(chan Metrics, 1)
	go func() {
		var m Metrics
		r.ReadMetrics(&m)
		read <- m
	}()
	select {
	case m := <-read:
		if m.Matches != 1 {
			t.Errorf("read %d matches during a tick, want 1", m.Matches)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadMetrics waited for a tick")
	}
}
