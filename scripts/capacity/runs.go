package main

import (
	"fmt"
	"slices"
	"strings"
)

// runs are the results of one game at one match count, a run each: the
// host's windows and the floor's fall on different seconds of a shared
// machine, so that one run's ratio moves with what ran beside it, and the
// table gives the median run's and the spread.
type runs []result

// byRatio returns the runs from the lowest host ÷ batched floor up.
func (rs runs) byRatio() runs {
	s := slices.Clone(rs)
	slices.SortStableFunc(s, func(a, b result) int {
		switch x, y := a.ratio(), b.ratio(); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return s
}

// median is the run of the median ratio, the lower one of an even count.
func (rs runs) median() result { return rs.byRatio()[(len(rs)-1)/2] }

// ratios lists each run's host ÷ batched floor, lowest first.
func (rs runs) ratios() string {
	var f []string
	for _, r := range rs.byRatio() {
		f = append(f, ratio(r.host.total(), r.floorB.total()))
	}
	return strings.Join(f, " ")
}

// p99s lists each run's Snapshot interval p99 in ms, in the order run.
func (rs runs) p99s() string {
	var f []string
	for _, r := range rs {
		f = append(f, ms(r.load.Overall.SnapshotIntervalMs.P99))
	}
	return strings.Join(f, " ")
}

// ratio is the run's host CPU per datagram over the batched floor's; the
// floor moved the same datagrams, so the CPU times compare as they are.
func (r result) ratio() float64 {
	if r.floorB.total() <= 0 {
		return 0
	}
	return r.host.total() / r.floorB.total()
}

// summary prints, for more than one run, each game and match count's
// median ratio with the lowest and highest run's, and the range of the
// runs' Snapshot p99s: a width that fits 80 columns whatever the runs.
func (t *table) summary(all []runs) {
	if t.markdown || len(all) == 0 || len(all[0]) < 2 {
		return
	}
	fmt.Fprintf(t.w, "\nover %d runs: ×B of the median run (lowest–highest), snap99 range\n", len(all[0]))
	for _, rs := range all {
		m, s := rs.median(), rs.byRatio()
		lo, hi := s[0], s[len(s)-1]
		p99s := make([]float64, 0, len(rs))
		for _, r := range rs {
			if p := r.load.Overall.SnapshotIntervalMs.P99; p != nil {
				p99s = append(p99s, *p)
			}
		}
		span := "-"
		if len(p99s) > 0 {
			span = fmt.Sprintf("%.1f–%.1f", slices.Min(p99s), slices.Max(p99s))
		}
		fmt.Fprintf(t.w, "%-4.4s %5d  ×B %s (%s–%s)  snap99 %s\n", shortGame(m.game), m.matches,
			ratio(m.host.total(), m.floorB.total()), ratio(lo.host.total(), lo.floorB.total()),
			ratio(hi.host.total(), hi.floorB.total()), span)
	}
}
