package bot

import (
	"strings"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// legendEntry explains one column of the table that could be misread.
type legendEntry struct{ term, meaning string }

// legend returns the legend of the table's columns, with the names the
// progress of the program at hand gives the same counters.
func (l Layout) legend() []legendEntry {
	snapshots := "Snapshots received (§8.1)"
	seen := "distinct entities the bot ever knew (§8.2); the progress lines show it as seen, " +
		"and as now the entities the bot holds at that moment"
	rtt := "round trips of the bot's Pings (§7.2), in ms, - without a Pong; " +
		"the progress lines show rtt, the latest"
	resends := "entity events the server sent again (§13.4); - here, as only the server counts them"
	if l.Demo {
		snapshots += "; the progress shows snapshots/bot, the mean over all bots"
		seen = "distinct entities the bot ever knew (§8.2); the progress shows entities now, " +
			"the most any bot holds at that moment"
		rtt = "round trips of the bot's Pings (§7.2), in ms, - without a Pong; " +
			"a bot's line in the progress of -watch=false on a terminal shows rtt, the latest"
		resends = "entity events the server sent again (§13.4), as it counted them; " +
			"- for a bot that never connected"
	}
	return []legendEntry{
		{"snapshots", snapshots},
		{"entities seen", seen},
		{"expired", "entities removed because no Snapshot listed them for 1s, as a lost DestroyEntity leaves (§13.4)"},
		{"RTT p50, p99", rtt},
		{"loss", "server packets that never arrived (§5.2), in %"},
		{"resends", resends},
		{"hello resends", "Hellos sent again before Welcome (§4.2)"},
	}
}

// writeLegend writes entries as a term column and a meaning column, each
// meaning wrapped to width under its own first word.
func writeLegend(b *strings.Builder, entries []legendEntry, width int) {
	terms := 0
	for _, e := range entries {
		terms = max(terms, termwidth.Columns(e.term))
	}
	indent := strings.Repeat(" ", 2+terms+2)
	for _, e := range entries {
		first := "  " + e.term + strings.Repeat(" ", terms-termwidth.Columns(e.term)+2)
		for i, line := range termwidth.Wrap(e.meaning, width-len(indent), "", "") {
			if i == 0 {
				b.WriteString(first)
			} else {
				b.WriteString(indent)
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
}
