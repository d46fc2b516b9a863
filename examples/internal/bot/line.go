package bot

import "fmt"

// Line is the bot's progress in one line: its name, where it is (see
// [Result.Progress]), then its counters, named as in [WriteLegend]:
//
//	bot-1 playing conn=4042139086 rtt=231µs loss=0.0% snapshots=40 entities-now=35 entities-seen=38 expired=0
func (r *Result) Line() string {
	rtt := "-" // no Pong yet
	if r.LastRTT > 0 {
		rtt = Round(r.LastRTT).String()
	}
	return fmt.Sprintf("%s %s conn=%d rtt=%s loss=%.1f%% snapshots=%d entities-now=%d entities-seen=%d expired=%d",
		r.Name, r.Progress(), r.ConnectionID, rtt, 100*r.Loss(),
		r.Client.Snapshots, r.Entities, r.EntitiesSeen, r.Expired)
}
