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
		fmt.Fprintln(w, "| matches | host CPU | datagrams/s | Snapshot p99 | RTT p99 | failed | host µs/datagram | floor µs/datagram, 1 per call | floor, batched | host ÷ batched floor |")
		fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		return t
	}
	fmt.Fprintln(w, "matches  host CPU  datagrams/s  snap p99  rtt p99  failed  µs/dgram  floor 1  batched  ÷")
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
		perDgram(r.hostCPU),
		perDgram(r.floor1),
		perDgram(r.floorB),
		ratio(r.hostCPU, r.floorB),
	}
	if t.markdown {
		fmt.Fprintf(t.w, "| %s |\n", strings.Join(cells, " | "))
		return
	}
	fmt.Fprintf(t.w, "%7s  %8s  %11s  %8s  %7s  %6s  %8s  %7s  %7s  %s\n", anys(cells)...)
}

func (t *table) end() {
	if !t.markdown {
		return
	}
	fmt.Fprintln(t.w)
}

func ms(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1fms", *v)
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
