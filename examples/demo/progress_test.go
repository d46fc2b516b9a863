package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/session"
)

// results are four bots a second into a game: three play, one waits for a
// slot (§10).
func results() []bot.Result {
	rs := make([]bot.Result, 4)
	for i := range rs {
		rs[i] = bot.Result{Name: "bot-" + string(rune('1'+i)), Connected: true, Playing: true, State: session.Playing,
			ConnectionID: uint32(100 + i), Entities: 17 + i, EntitiesSeen: 20, Client: session.ClientStats{Counters: session.Counters{Snapshots: uint64(18 + i)}}}
	}
	rs[3] = bot.Result{Name: "bot-4", Connected: true, State: session.Waiting}
	return rs
}

// Away from a terminal, the progress is one line a second, at 1.0s, 2.0s
// and so on whenever the ticks come, each counter named: the Snapshots a
// bot received on average, the most entities a bot holds now.
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, 10*time.Second)
	start := p.sched.Start
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		for _, ms := range []int{1004, 2011, 2990, 4350} {
			ticks <- start.Add(time.Duration(ms) * time.Millisecond)
		}
		close(done)
	}()
	p.sched.Follow(ticks, done, func(at time.Duration) { p.show(at, results()) })
	line := "  %s  3/4 playing  1 waiting    14 snapshots/bot   19 entities now"
	var want []string
	for _, at := range []string{"1.0s", "2.0s", "3.0s", "4.0s"} {
		want = append(want, strings.Replace(line, "%s", at, 1))
	}
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

// On a terminal, the progress is a bar and the bots' own lines under
// their header, redrawn in place.
func TestProgressLive(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, true, 10*time.Second)
	p.size = func() (int, int) { return 200, 50 }
	if p.sched.Every != 200*time.Millisecond {
		t.Errorf("redrawn every %v, want 200ms", p.sched.Every)
	}
	rs := results()
	p.show(5*time.Second, rs)
	p.show(5200*time.Millisecond, rs)
	frames := strings.Split(out.String(), "\x1b[6A")
	if len(frames) != 2 {
		t.Fatalf("%d frames, want the second drawn over the first's 6 lines:\n%q", len(frames), out.String())
	}
	lines := bot.NewLines(rs)
	for i, bar := range []string{"[###############...............] 5.0s", "[###############...............] 5.2s"} {
		if !strings.Contains(frames[i], bar) {
			t.Errorf("frame %d lacks %q:\n%q", i, bar, frames[i])
		}
		if !strings.Contains(frames[i], "\x1b[2K"+lines.Header()+"\n\x1b[2K"+lines.Line(&rs[0])+"\n") {
			t.Errorf("frame %d lacks the header over the first bot's line:\n%q", i, frames[i])
		}
		for j := range rs {
			if !strings.Contains(frames[i], "\x1b[2K"+lines.Line(&rs[j])+"\n") {
				t.Errorf("frame %d lacks %s's line %q", i, rs[j].Name, lines.Line(&rs[j]))
			}
		}
	}
}

// On a narrow terminal every line of the live progress is cut short of the
// last column, so that none wraps and each redraw covers the one before.
func TestProgressLiveNarrow(t *testing.T) {
	for _, cols := range []int{1, 2, 20, 40} {
		var out bytes.Buffer
		p := newProgress(&out, true, 10*time.Second)
		p.size = func() (int, int) { return cols, 24 }
		p.show(time.Second, results())
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			line = strings.TrimPrefix(line, "\x1b[2K")
			if n := len([]rune(line)); n >= cols && n > 0 {
				t.Errorf("%d columns: a line of %d characters: %q", cols, n, line)
			}
		}
	}
}

// On a terminal of few rows the live progress keeps within them, one row
// free for the cursor, summing the bots it has no room for, so that the
// terminal never scrolls and each redraw covers the one before.
func TestProgressLiveShort(t *testing.T) {
	rs := append(results(), results()...) // 8 bots
	for _, tc := range []struct {
		rows, lines int
		more        string
	}{{24, 10, ""}, {11, 10, ""}, {10, 9, "… and 2 more bots"}, {9, 8, "… and 3 more bots"}, {5, 4, "… and 7 more bots"},
		{4, 2, "… and 8 more bots"}, {3, 2, "… and 8 more bots"}, {1, 1, ""}} {
		var out bytes.Buffer
		p := newProgress(&out, true, 10*time.Second)
		p.size = func() (int, int) { return 200, tc.rows }
		p.show(time.Second, rs)
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(got) != tc.lines || p.drawn != tc.lines {
			t.Errorf("%d rows: %d lines drawn (%d counted), want %d:\n%s", tc.rows, len(got), p.drawn, tc.lines, out.String())
		}
		if tc.more != "" && !strings.HasSuffix(got[len(got)-1], tc.more) {
			t.Errorf("%d rows: last line %q, want %q", tc.rows, got[len(got)-1], tc.more)
		}
	}
}
