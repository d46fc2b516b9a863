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
		fmt.Fprintln(w, "| matches | host CPU | datagrams/s | Snapshot p99 (ms) | RTT p99 (ms) | bots failed | frames rtypeload ran | host µs/datagram | floor µs/datagram, 1 per call | floor, batched | host ÷ batched floor |")
		fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		return t
	}
	fmt.Fprintln(w, "    N   cpu  dgram/s  snap99  rtt99  fail  load  µs/dg  fl.1  fl.B   ×B")
	return t
}

func (t *table) row(r result) {
	dgrams := r.in + r.out
	perDgram := func(cpu float64) string { return fmt.Sprintf("%.2f", cpu/dgrams*1e6) }
	cells := []string{
		fmt.Sprint(r.matches),
		fmt.Sprintf("%.0f%%", 100*r.hostCPU/r.secs),
		fmt.Sprintf("%.0f", dgrams/r.secs),
		ms(r.load.Overall.SnapshotIntervalMs.P99),
		ms(r.load.Overall.RTTMs.P99),
		fmt.Sprint(r.load.Overall.Players - r.load.Overall.PlayersOK),
		fmt.Sprintf("%.0f%%", r.load.CPU.FramesPercent),
		perDgram(r.hostCPU),
		perDgram(r.floor1),
		perDgram(r.floorB),
		ratio(r.hostCPU, r.floorB),
	}
	if t.markdown {
		fmt.Fprintf(t.w, "| %s |\n", strings.Join(cells, " | "))
		return
	}
	fmt.Fprintf(t.w, "%5s  %4s  %7s  %6s  %5s  %4s  %4s  %5s  %4s  %4s  %3s\n", anys(cells)...)
}

func (t *table) end() {
	if t.markdown {
		fmt.Fprintln(t.w)
		return
	}
	fmt.Fprint(t.w, `N matches of 4 bots; cpu: the host's core, from /proc; dgram/s: in and out;
snap99, rtt99: rtypeload's Snapshot interval and RTT p99, in ms; fail: bots
that failed; load: the frames rtypeload ran (under 90%, the generator was the
limit); µs/dg: host CPU per datagram; fl.1, fl.B: the floor's, one datagram
per system call and batched; ×B: host ÷ batched floor.
`)
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
	return fmt.Sprintf("%.1f", a/b)
}

func anys(s []string) []any {
	a := make([]any, len(s))
	for i, v := range s {
		a[i] = v
	}
	return a
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
