// Command capacity measures how many matches one core hosts: for each
// match count and each of two games it runs the example server (package
// host) pinned to CPU 0 and rtypeload pinned to CPU 1, reads the server's
// user and kernel CPU time from /proc and its datagram counters and game
// tick times from its Prometheus metrics over a steady window, and then,
// in the same run, the floor: a program on CPU 0 doing only the system
// calls for the same datagram counts, one datagram per call and in
// batches. It prints one row per game and match count, host CPU per
// datagram next to the floor's.
//
// The games are the server's -game: the reference game, a ship per player
// moved by its Input and nothing else, what every version 1 game must do,
// so that its row is the toolkit's own cost; and the example game, Bydos
// and missiles, whose row adds a game's.
//
//	scripts/capacity.sh                           # N = 50 … 1000, 20 s each
//	scripts/capacity.sh -matches 10 -duration 5s  # a quick check
//	scripts/capacity.sh -update                   # the table of the docs
//
// -runs R measures each game and match count R times, one run over all of
// them after another: the text gives every run's row and then, per game
// and match count, the median run's host ÷ batched floor beside each
// run's and each run's Snapshot p99; the Markdown table gives the median
// run's row with the same two lists.
//
// -update writes the table between the capacity markers of
// docs/performance.md. It exits 1, after the table, when bots failed in a
// run (stderr says which), as that many matches were not held.
//
// It needs Linux, taskset and two cores.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	matches := flag.String("matches", "50,100,250,500,1000", "comma-separated match counts")
	gamesFlag := flag.String("games", "reference,example", "comma-separated games of the server's -game")
	duration := flag.Duration("duration", 20*time.Second, "measured window of each run")
	nRuns := flag.Int("runs", 1, "runs of each game and match count, one after another over all of them; the Markdown row is the run of median host ÷ batched floor")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	update := flag.Bool("update", false, "write the Markdown table into docs/performance.md")
	floorMode := flag.Bool("floor", false, "internal: be the floor process")
	var fa floorArgs
	flag.IntVar(&fa.matches, "floor-sockets", 1, "internal: the floor's sockets")
	flag.Float64Var(&fa.out, "floor-out", 0, "internal: datagrams a second out")
	flag.IntVar(&fa.size, "floor-size", 100, "internal: size of a datagram out")
	flag.StringVar(&fa.sink, "floor-sink", "", "internal: where to send")
	flag.IntVar(&fa.batch, "floor-batch", 1, "internal: datagrams per system call")
	flag.Parse()
	if *floorMode {
		fa.duration = *duration
		if err := runFloor(fa, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		return
	}
	var ns []int
	for _, f := range strings.Split(*matches, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "capacity: -matches: %q\n", f)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	var games []string
	for _, g := range strings.Split(*gamesFlag, ",") {
		if g = strings.TrimSpace(g); g != "reference" && g != "example" {
			fmt.Fprintf(os.Stderr, "capacity: -games: %q is neither reference nor example\n", g)
			os.Exit(2)
		}
		games = append(games, g)
	}
	if *nRuns < 1 {
		fmt.Fprintf(os.Stderr, "capacity: -runs: %d\n", *nRuns)
		os.Exit(2)
	}
	ok, err := run(games, ns, *duration, *nRuns, *markdown || *update, *update)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capacity:", err)
		os.Exit(1)
	}
	if !ok {
		// The table stands, but a run where bots failed is no capacity.
		os.Exit(1)
	}
}
