package bot

import (
	"context"
	"net/netip"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
)

// playInMemory runs a bot for 4 s against the example game on an
// in-memory network whose server-to-bot link is impaired by p, in virtual
// time, and returns what it saw.
func playInMemory(t *testing.T, p netem.Params) Result {
	var r Result
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(3)
		srv, bot := netip.MustParseAddrPort("10.0.0.1:4242"), netip.MustParseAddrPort("10.0.0.2:5000")
		sc, err := nw.Listen(srv)
		if err != nil {
			t.Fatal(err)
		}
		bc, err := nw.Listen(bot)
		if err != nil {
			t.Fatal(err)
		}
		if err := nw.Impair(srv, bot, p); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- gameserver.New(gameserver.Config{}).Serve(ctx, sc) }()
		r = New(Config{Server: srv, Name: "b", Duration: 4 * time.Second, Conn: bc}).Run(context.Background())
		cancel()
		<-done
	})
	return r
}

// A bot's Result reports what a smooth view of its world drew: on a clean
// link, nearly every entity interpolated two Snapshot intervals (100 ms,
// §8.1) behind the server (a new one is held until a Snapshot lists it),
// its own ship never snapped; with a
// Snapshot in five lost in bursts, some extrapolated and a longer delay.
func TestBotReportsItsSmoothness(t *testing.T) {
	clean := playInMemory(t, netem.Params{})
	lossy := playInMemory(t, netem.Params{Loss: 0.2, Burst: 3})
	for _, r := range []*Result{&clean, &lossy} {
		s := &r.Smooth
		t.Logf("frames %d over %v, delay mean %v p99 %v, extrapolated %.2f%%, held %.2f%%, snaps %d (%.1f/min), corrections %d, snapped %d, mean %.2f px",
			s.View.Frames, s.Time, s.DelayMean(), s.DelayPercentile(99), 100*s.ExtrapolatedShare(), 100*s.HeldShare(),
			s.View.Snaps, s.SnapsPerMinute(), s.View.Corrections, s.View.CorrectionSnaps, s.CorrectionMean())
		if !r.OK() || s.View.Frames < 200 || s.Time < 3*time.Second || s.drawn() == 0 {
			t.Fatalf("status %s, %d frames drawn over %v, %d entities drawn: want a view drawn all along", r.Status(), s.View.Frames, s.Time, s.drawn())
		}
		if s.DelayPercentile(99) < s.DelayMean().Truncate(time.Millisecond) || s.View.CorrectionSnaps != 0 {
			t.Errorf("p99 %v under mean %v, or %d snaps of the own ship", s.DelayPercentile(99), s.DelayMean(), s.View.CorrectionSnaps)
		}
	}
	c, l := &clean.Smooth, &lossy.Smooth
	if d := c.DelayMean(); d < 95*time.Millisecond || d > 110*time.Millisecond || c.HeldShare() > 0.01 || c.ExtrapolatedShare() > 0.01 {
		t.Errorf("clean: delay %v, held %.3f, extrapolated %.3f: want 100 ms and nearly all interpolated", d, c.HeldShare(), c.ExtrapolatedShare())
	}
	if l.DelayMean() <= c.DelayMean() || l.ExtrapolatedShare() <= c.ExtrapolatedShare() {
		t.Errorf("lossy: delay %v and extrapolated %.3f, want both above the clean link's", l.DelayMean(), l.ExtrapolatedShare())
	}
}

// The render delay's percentiles count every frame by nearest rank, one
// beyond the bound in the last slot.
func TestSmoothDelayPercentile(t *testing.T) {
	var s Smooth
	for _, ms := range []int{100, 100, 100, 120, 5000} {
		s.delays[min(ms, smoothDelays)]++
		s.delaySum += time.Duration(ms) * time.Millisecond
		s.View.Frames++
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 100 * time.Millisecond}, {80, 120 * time.Millisecond}, {99, time.Second}} {
		if got := s.DelayPercentile(c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if got := s.DelayMean(); got != 1084*time.Millisecond {
		t.Errorf("mean %v, want 1084ms", got)
	}
}
