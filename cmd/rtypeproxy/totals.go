package main

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/netem"
)

// dropReason is why the proxy did not deliver a datagram: the link's
// reasons first, then the proxy's own.
type dropReason uint8

const (
	dropLoss     dropReason = iota // netem.DropLoss
	dropBlackout                   // netem.DropBlackout
	dropQueue                      // netem.DropQueue
	dropMemory                     // the bytes held for delayed datagrams reached heldBound
	dropSend                       // the socket refused it (no server listening, for one)
	dropUnsent                     // still held when the proxy stopped
	dropFull                       // from a new address while the client table was full
	dropSocket                     // from a new address whose upstream socket could not be opened
	numDrops
)

var dropNames = [numDrops]string{"loss", "blackout", "queue full", "memory bound", "send failed", "unsent at exit", "client table full", "no upstream socket"}

// String is the reason as the log and the totals name it.
func (r dropReason) String() string { return dropNames[r] }

// linkDrop maps the link's reason to the proxy's.
func linkDrop(r netem.DropReason) dropReason {
	return dropReason(r - netem.DropLoss)
}

// counters are the totals of one direction of one client. Several
// goroutines add to them: the receiving one, the scheduler's.
type counters struct {
	in, out, dups atomic.Int64
	passed        atomic.Int64 // datagrams the link let through
	delaySum      atomic.Int64 // their added delay, in nanoseconds
	drops         [numDrops]atomic.Int64
}

// tally is a copy of counters, summed over clients for the forgotten ones.
type tally struct {
	in, out, dups, passed, delaySum int64
	drops                           [numDrops]int64
}

// tally copies the counters as they are now.
func (c *counters) tally() tally {
	t := tally{in: c.in.Load(), out: c.out.Load(), dups: c.dups.Load(), passed: c.passed.Load(), delaySum: c.delaySum.Load()}
	for i := range t.drops {
		t.drops[i] = c.drops[i].Load()
	}
	return t
}

// add adds o to t.
func (t *tally) add(o tally) {
	t.in += o.in
	t.out += o.out
	t.dups += o.dups
	t.passed += o.passed
	t.delaySum += o.delaySum
	for i := range t.drops {
		t.drops[i] += o.drops[i]
	}
}

// dropped is the number of datagrams dropped for any reason.
func (t tally) dropped() int64 {
	var n int64
	for _, d := range t.drops {
		n += d
	}
	return n
}

// meanDelay is the mean delay the link added to the datagrams it let
// through (their first copies).
func (t tally) meanDelay() time.Duration {
	if t.passed == 0 {
		return 0
	}
	return time.Duration(t.delaySum / t.passed)
}

// line is one direction's totals, as the exit report prints them.
func (t tally) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "in %d, out %d, dropped %d", t.in, t.out, t.dropped())
	var why []string
	for r, n := range t.drops {
		if n > 0 {
			why = append(why, fmt.Sprintf("%s %d", dropReason(r), n))
		}
	}
	if len(why) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(why, ", "))
	}
	fmt.Fprintf(&b, ", duplicated %d, mean added delay %s", t.dups, roundDelay(t.meanDelay()))
	return b.String()
}

// writeTotals prints the totals of every client the table holds, then those
// of the clients forgotten, summed, and the datagrams refused, in lines of
// at most width columns: a direction's line too long goes on under its
// first count, any other line four columns in.
func writeTotals(w io.Writer, t *clientTable, width int) {
	var b strings.Builder
	put := func(lines []string) {
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	say := func(format string, args ...any) { put(termwidth.Wrap(fmt.Sprintf(format, args...), width, "", "    ")) }
	direction := func(d direction, x tally) {
		put(termwidth.Fill(fmt.Sprintf("  %-4s ", d), strings.Split(x.line(), ", "), width))
	}
	say("totals: %d clients served, %d now", t.next, len(t.byAddr))
	for _, c := range t.inOrder() {
		say("client %d %s %s", c.n, c.addr, strings.ReplaceAll(fmt.Sprintf("(to the server as %s)", c.local), " ", termwidth.NBSP))
		for d := up; d <= down; d++ {
			direction(d, c.stats[d].tally())
		}
	}
	if t.forgottenN+t.evictedN > 0 {
		line := fmt.Sprintf("%d clients forgotten after %s idle", t.forgottenN, t.idle)
		if t.evictedN > 0 {
			line += fmt.Sprintf(" and %d evicted, never answered, for a new address (-max-clients)", t.evictedN)
		}
		say("%s, together", line)
		for d := up; d <= down; d++ {
			direction(d, t.forgotten[d])
		}
	}
	if t.refused > 0 {
		say("refused: %d datagrams from new addresses while %d clients were served (-max-clients)", t.refused, t.max)
	}
	if t.unopened > 0 {
		say("refused: %d datagrams from new addresses for which no upstream socket could be opened", t.unopened)
	}
	io.WriteString(w, b.String())
}
