package bot

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// A bot's progress line has a cell under each column of the header, the
// round trip in milliseconds as the table has it, "-" for what is not
// known yet; the lines of ten bots, with counters as large as a long game
// makes them, fit 80 columns with the time before them.
func TestLines(t *testing.T) {
	rs := []Result{
		{Name: "bot-1", Connected: true, Playing: true, State: session.Playing, ConnectionID: 4042139086,
			LastRTT: 231087 * time.Nanosecond, Entities: 35, EntitiesSeen: 38, Expired: 2,
			Client: session.ClientStats{Counters: session.Counters{Snapshots: 40, PacketsAccepted: 199, PacketsLost: 1}}},
		{Name: "bot-2"},
		{Name: "bot-3", Rejected: true, Err: session.ErrRejected},
		{Name: "bot-10", Connected: true, State: session.Waiting, ConnectionID: 1, LastRTT: 1234 * time.Millisecond,
			Entities: 999, EntitiesSeen: 9999, Expired: 9999, Client: session.ClientStats{Counters: session.Counters{Snapshots: 999999, PacketsLost: 1}}},
	}
	l := NewLines(rs)
	want := []string{
		"bot    state            conn rtt ms loss % snapshots now seen expired",
		"bot-1  playing    4042139086  0.231    0.5        40  35   38       2",
		"bot-2  connecting          -      -    0.0         0   0    0       0",
		"bot-3  rejected            -      -    0.0         0   0    0       0",
		"bot-10 waiting             1   1230  100.0    999999 999 9999    9999",
	}
	got := []string{l.Header()}
	for i := range rs {
		got = append(got, l.Line(&rs[i]))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n%s\nwant\n%s", i, got[i], want[i])
		}
		if n := textWidth("100.0s " + got[i]); n > 80 {
			t.Errorf("line %d takes %d columns with its time: %q", i, n, got[i])
		}
	}
}
