package bot

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// Layout says how [WriteTable] lays out the table, and which program's
// progress its legend speaks of.
type Layout struct {
	// Width is how many columns a line may take; 0 means [termwidth.Default].
	Width int
	// Demo is set for examples/demo, whose progress sums up all bots and
	// which has the server's count of resends; examples/bot prints one
	// line per bot and cannot know the resends.
	Demo bool
}

// column is one column of the table: its header and a bot's cell.
type column struct {
	head string
	cell func(r *Result) string
}

// The table's columns. Units stand in the header, not in every cell.
var (
	colBot       = column{"bot", func(r *Result) string { return r.Name }}
	colConn      = column{"conn", func(r *Result) string { return connText(r) }}
	colSnapshots = column{"snapshots", func(r *Result) string { return strconv.FormatUint(r.Client.Snapshots, 10) }}
	colSeen      = column{"entities seen", func(r *Result) string { return strconv.Itoa(r.EntitiesSeen) }}
	colExpired   = column{"expired", func(r *Result) string { return strconv.Itoa(r.Expired) }}
	colInputs    = column{"inputs", func(r *Result) string { return strconv.Itoa(r.Inputs) }}
	colPongs     = column{"pongs", func(r *Result) string { return strconv.FormatUint(r.Client.Pongs, 10) }}
	colP50       = column{"RTT p50 ms", func(r *Result) string { return r.rttText(50) }}
	colP99       = column{"RTT p99 ms", func(r *Result) string { return r.rttText(99) }}
	colLoss      = column{"loss %", func(r *Result) string { return lossText(r) }}
	colResends   = column{"resends", func(r *Result) string { return resendsText(r) }}
	colHellos    = column{"hello resends", func(r *Result) string { return strconv.Itoa(r.HelloResends) }}
	colStatus    = column{"status", func(r *Result) string { return r.Status() }}
)

// wholeTable is the table in one piece, for a width that holds it.
var wholeTable = []column{colBot, colConn, colSnapshots, colSeen, colExpired, colInputs, colPongs,
	colP50, colP99, colLoss, colResends, colHellos, colStatus}

// The two tables the whole one splits into when it is too wide: what the
// bot got of the game and how its session ended, then its traffic. Each
// names the bot first, so that a bot's two lines are found by its name.
var (
	sessionTable = []column{colBot, colConn, colSnapshots, colSeen, colExpired, colStatus}
	trafficTable = []column{colBot, colInputs, colPongs, colP50, colP99, colLoss, colResends, colHellos}
)

// WriteTable prints one line per bot: its connection id, the Snapshots
// received, the entities seen and expired, the Inputs sent and Pongs
// received, the RTT p50 and p99, the loss, the resends, the Hellos resent
// and how the session ended; then, after a blank line, the legend of its
// columns. The table is one when it fits l.Width, else two, each headed by
// the bot's name: the session (connection id, Snapshots, entities, status)
// and the traffic (Inputs, Pongs, RTT, loss, resends, Hellos resent).
func WriteTable(w io.Writer, results []Result, l Layout) error {
	width := termwidth.Layout(l.Width)
	lines := renderTable(wholeTable, results)
	if widest(lines) > width {
		lines = append(append(renderTable(sessionTable, results), ""), renderTable(trafficTable, results)...)
	}
	var b strings.Builder
	for _, line := range lines {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	writeLegend(&b, l.legend(), width)
	_, err := io.WriteString(w, b.String())
	return err
}

// renderTable lays out cols for results: a header, then one line per bot,
// every cell right-aligned, two spaces before each.
func renderTable(cols []column, results []Result) []string {
	rows := make([][]string, 1+len(results))
	widths := make([]int, len(cols))
	for i := range rows {
		rows[i] = make([]string, len(cols))
		for j, c := range cols {
			cell := c.head
			if i > 0 {
				cell = c.cell(&results[i-1])
			}
			rows[i][j] = cell
			widths[j] = max(widths[j], termwidth.Columns(cell))
		}
	}
	lines := make([]string, len(rows))
	for i, row := range rows {
		var b strings.Builder
		for j, cell := range row {
			b.WriteString(strings.Repeat(" ", 2+widths[j]-termwidth.Columns(cell)))
			b.WriteString(cell)
		}
		lines[i] = b.String()
	}
	return lines
}

// widest returns the width of the widest of lines.
func widest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, termwidth.Columns(l))
	}
	return n
}

// rttText is the p-th percentile of the round trips in milliseconds, or
// "-" without any Pong.
func (r *Result) rttText(p float64) string {
	if len(r.RTT) == 0 {
		return "-"
	}
	return Millis(r.RTTPercentile(p))
}

// Millis writes d in milliseconds to three significant figures, as
// [Round] rounds it, without the unit: "0.231" for 231.087µs, "1.14" for
// 1.1449ms, "1.60" for 1.6ms, "1230" for 1.2345s.
func Millis(d time.Duration) string {
	ms := float64(Round(d)) / float64(time.Millisecond)
	decimals := 0
	for limit := 100.0; decimals < 6 && math.Abs(ms) < limit; limit /= 10 {
		decimals++
	}
	return strconv.FormatFloat(ms, 'f', decimals, 64)
}

// connText is the connection id, or "-" before any Welcome: no Welcome
// gives 0 (§4.3).
func connText(r *Result) string {
	if r.ConnectionID == 0 {
		return "-"
	}
	return strconv.FormatUint(uint64(r.ConnectionID), 10)
}

// lossText is the loss in percent, without the unit.
func lossText(r *Result) string { return fmt.Sprintf("%.1f", 100*r.Loss()) }

// resendsText is the server's count of resends, or "-" where it is not at
// hand.
func resendsText(r *Result) string {
	if r.Resends < 0 {
		return "-"
	}
	return strconv.Itoa(r.Resends)
}
