package bot

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// A bot's progress line names every counter as the legend does, and rounds
// its round trip as the table does.
func TestLine(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Name: "bot-1", Connected: true, Playing: true, State: session.Playing, ConnectionID: 4042139086,
			LastRTT: 231087 * time.Nanosecond, Entities: 35, EntitiesSeen: 38, Expired: 2,
			Client: session.Stats{Snapshots: 40, PacketsAccepted: 199, PacketsLost: 1}},
			"bot-1 playing conn=4042139086 rtt=231µs loss=0.5% snapshots=40 entities-now=35 entities-seen=38 expired=2"},
		{Result{Name: "bot-2"}, "bot-2 connecting conn=0 rtt=- loss=0.0% snapshots=0 entities-now=0 entities-seen=0 expired=0"},
		{Result{Name: "bot-3", Rejected: true, Err: session.ErrRejected},
			"bot-3 rejected conn=0 rtt=- loss=0.0% snapshots=0 entities-now=0 entities-seen=0 expired=0"},
	}
	for _, tc := range tests {
		if got := tc.r.Line(); got != tc.want {
			t.Errorf("Line() =\n%s\nwant\n%s", got, tc.want)
		}
	}
}
