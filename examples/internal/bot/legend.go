package bot

import (
	"fmt"
	"io"
)

// legend explains the table's columns that could be misread, and the names
// the progress gives the same counters.
var legend = []struct{ term, meaning string }{
	{"snapshots", "Snapshots received (§8.1); the demo's progress lines show snapshots/bot, the mean over all bots"},
	{"entities seen", "distinct entities the bot ever knew (§8.2); the progress shows entities now, those it holds"},
	{"expired", "entities removed because no Snapshot listed them for 1s, as a lost DestroyEntity leaves (§13.4)"},
	{"RTT p50, p99", "round trips of the bot's Pings (§7.2), - without a Pong; a bot's line shows rtt, the latest"},
	{"loss", "server packets that never arrived (§5.2)"},
	{"resends", "entity events the server sent again (§13.4); - where the server's count is not at hand:"},
	{"", "always in examples/bot, in the demo for a bot that never connected"},
	{"hello resends", "Hellos sent again before Welcome (§4.2)"},
}

// WriteLegend prints the legend of [WriteTable]'s columns.
func WriteLegend(w io.Writer) error {
	width := 0
	for _, l := range legend {
		width = max(width, len(l.term))
	}
	// A term of "" continues the meaning above.
	for _, l := range legend {
		if _, err := fmt.Fprintf(w, "  %-*s  %s\n", width, l.term, l.meaning); err != nil {
			return err
		}
	}
	return nil
}
