package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

// table prints the results, one row per match count, as text that fits 80
// columns or as Markdown.
type table struct {
	w        io.Writer
	markdown bool
}

func newTable(w io.Writer, markdown bool, d time.Duration) *table {
	t := &table{w: w, markdown: markdown}
	fmt.Fprintf(w, "%s; %s; %s, %v windows\n", cpuModel(), kernel(), runtime.Version(), d)
	if markdown {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| game | matches | load avg | host CPU | datagrams/s | Snapshot p99 (ms) | RTT p99 (ms) | bots failed | frames rtypeload ran | host µs/datagram, user + kernel | floor, batched | floor, 1 per call | host ÷ batched floor | kernel ÷ floor's kernel | game µs/match-tick | host ÷ batched floor, each run | Snapshot p99, each run (ms) |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		return t
	}
	fmt.Fprintln(w, "game     N   ld  cpu snap99 fail load   usr   sys B.usr B.sys  fl.1   ×B  step")
	return t
}

// row prints a game and match count: in Markdown its median run, with
// every run's ratio and p99; as text each run as it ends.
func (t *table) row(rs runs) {
	r := rs.median()
	if !t.markdown {
		r = rs[len(rs)-1]
	}
	dgrams := r.in + r.out
	us := func(cpu float64) string { return fmt.Sprintf("%.2f", cpu/dgrams*1e6) }
	step := "-"
	if r.steps > 0 {
		step = fmt.Sprintf("%.2f", r.stepSecs/r.steps*1e6)
	}
	if t.markdown {
		cells := []string{
			r.game,
			fmt.Sprint(r.matches),
			fmt.Sprintf("%.1f", r.loadAvg),
			fmt.Sprintf("%.0f%%", 100*r.host.total()/r.secs),
			fmt.Sprintf("%.0f", dgrams/r.secs),
			ms(r.load.Overall.SnapshotIntervalMs.P99),
			ms(r.load.Overall.RTTMs.P99),
			fmt.Sprint(r.load.Overall.Players - r.load.Overall.PlayersOK),
			fmt.Sprintf("%.0f%%", r.load.CPU.FramesPercent),
			us(r.host.user) + " + " + us(r.host.sys),
			us(r.floorB.user) + " + " + us(r.floorB.sys),
			us(r.floor1.total()),
			ratio(r.host.total(), r.floorB.total()),
			ratio(r.host.sys, r.floorB.sys),
			step,
			rs.ratios(),
			rs.p99s(),
		}
		fmt.Fprintf(t.w, "| %s |\n", strings.Join(cells, " | "))
		return
	}
	fmt.Fprintf(t.w, "%-4.4s %5d %4.1f %4s %6s %4d %4s %5s %5s %5s %5s %5s %4s %5s\n",
		shortGame(r.game), r.matches, r.loadAvg,
		fmt.Sprintf("%.0f%%", 100*r.host.total()/r.secs),
		ms(r.load.Overall.SnapshotIntervalMs.P99),
		r.load.Overall.Players-r.load.Overall.PlayersOK,
		fmt.Sprintf("%.0f%%", r.load.CPU.FramesPercent),
		us(r.host.user), us(r.host.sys), us(r.floorB.user), us(r.floorB.sys),
		us(r.floor1.total()), ratio(r.host.total(), r.floorB.total()), step)
}

func (t *table) end() {
	if t.markdown {
		fmt.Fprintln(t.w)
		return
	}
	fmt.Fprint(t.w, `game: ref, the reference game (ships only), or exam, the example game; N
matches of 4 bots; ld: the machine's load average when the run began; cpu:
the host's core, from /proc; snap99: rtypeload's Snapshot interval p99, in
ms; fail: bots that failed; load: the frames rtypeload ran (under 90%, the
generator was the limit); usr, sys: host CPU per datagram, user and kernel,
in µs; B.usr, B.sys: the batched floor's; fl.1: the floor's, one datagram per
system call; ×B: host ÷ batched floor; step: the game's tick, µs per match.
`)
}

// shortGame is the text table's name of a game: ref or exam.
func shortGame(g string) string {
	return strings.TrimSuffix(strings.TrimSuffix(g, "erence"), "ple")
}

func ms(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *v)
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return fmt.Sprintf("%s ×%d", strings.TrimSpace(v), runtime.NumCPU())
		}
	}
	return fmt.Sprintf("%d CPUs", runtime.NumCPU())
}

func kernel() string {
	b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return "Linux " + strings.TrimSpace(string(b))
}
