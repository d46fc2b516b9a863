package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// samples are the figures of one run's output: per benchmark name and
// metric unit, one value per run, in order.
type samples map[string]map[string][]float64

// parse reads go test -bench output: a result line is the benchmark's
// name with its -GOMAXPROCS suffix, the iterations, then value-unit pairs.
func parse(out []byte) samples {
	s := samples{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := trimProcs(f[0])
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			if s[name] == nil {
				s[name] = map[string][]float64{}
			}
			s[name][f[i+1]] = append(s[name][f[i+1]], v)
		}
	}
	return s
}

// trimProcs drops the -N go test appends to a name when GOMAXPROCS > 1.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// verdict is one bound against its figures.
type verdict struct {
	bound
	runs   []float64 // in order
	median float64
}

func (v verdict) over() bool { return len(v.runs) > 0 && v.median > v.limit() }

// ErrOverBound is judge's error when a ratio passed its bound, or is
// missing from the output.
var ErrOverBound = errors.New("a ratio is over its bound")

// judge takes the median of each bound's figures and says whether all
// are within their bounds; a bound without figures fails too, as a
// renamed benchmark would otherwise leave its ratio unwatched.
func judge(s samples, bs []bound) ([]verdict, error) {
	var vs []verdict
	var err error
	for _, b := range bs {
		v := verdict{bound: b, runs: s[b.name][b.unit]}
		if len(v.runs) == 0 {
			err = fmt.Errorf("%w: %s reported no %s", ErrOverBound, b.name, b.unit)
		} else {
			v.median = median(v.runs)
		}
		if v.over() {
			err = ErrOverBound
		}
		vs = append(vs, v)
	}
	return vs, err
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// report prints one line a ratio, within 80 columns, and a line for each
// ratio over its bound with the bound and the figure.
func report(w io.Writer, vs []verdict) {
	fmt.Fprintf(w, "%-34s %6s %6s  %s\n", "ratio (median of runs)", "bound", "median", "runs")
	for _, v := range vs {
		name := strings.TrimPrefix(v.name, "Benchmark")
		if len(v.runs) == 0 {
			fmt.Fprintf(w, "%-34s %6.2f %6s  none\n", name, v.limit(), "-")
			continue
		}
		var runs []string
		for _, r := range v.runs[:min(len(v.runs), 5)] {
			runs = append(runs, strconv.FormatFloat(r, 'f', 2, 64))
		}
		if len(v.runs) > 5 {
			runs = append(runs, "…")
		}
		fmt.Fprintf(w, "%-34s %6.2f %6.2f  %s\n", name, v.limit(), v.median, strings.Join(runs, " "))
	}
	for _, v := range vs {
		if v.over() {
			fmt.Fprintf(w, "FAIL %s: %.2f %s, over its bound %.2f (goal %.2f + 20%%)\n",
				strings.TrimPrefix(v.name, "Benchmark"), v.median, v.unit, v.limit(), v.goal)
		}
	}
}
