package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `goos: linux
pkg: github.com/rtypeproto/rtype/session
BenchmarkClientSnapshotRatio-2   	    1310	    937255 ns/op	         1.40 x-decode	      30 B/op	       0 allocs/op
BenchmarkClientSnapshotRatio-2   	    1294	    919007 ns/op	         1.20 x-decode	      20 B/op	       0 allocs/op
BenchmarkClientSnapshotRatio-2   	    1256	    962283 ns/op	         2.90 x-decode	      20 B/op	       0 allocs/op
BenchmarkRatio/InputPacket-2         	   63795	     20180 ns/op	         1.357 x-unchecked
BenchmarkServerCycleRatio         	     440	   2905136 ns/op	         3.70 x-encode
PASS
ok  	github.com/rtypeproto/rtype/session	11.016s
`

func TestParse(t *testing.T) {
	want := samples{
		"BenchmarkClientSnapshotRatio": {"ns/op": {937255, 919007, 962283}, "x-decode": {1.4, 1.2, 2.9}, "B/op": {30, 20, 20}, "allocs/op": {0, 0, 0}},
		"BenchmarkRatio/InputPacket":   {"ns/op": {20180}, "x-unchecked": {1.357}},
		"BenchmarkServerCycleRatio":    {"ns/op": {2905136}, "x-encode": {3.7}},
	}
	if d := cmp.Diff(want, parse([]byte(sample))); d != "" {
		t.Errorf("parse (-want +got):\n%s", d)
	}
}

func TestJudge(t *testing.T) {
	client := bound{"BenchmarkClientSnapshotRatio", "x-decode", 1.5}
	server := bound{"BenchmarkServerCycleRatio", "x-encode", 3}
	missing := bound{"BenchmarkGone", "x-decode", 1}
	for _, tt := range []struct {
		name   string
		bounds []bound
		fail   bool
		report []string // lines the report must hold
	}{
		{"the median of three within", []bound{client}, false, []string{"ClientSnapshotRatio                  1.80   1.40  1.40 1.20 2.90"}},
		{"one figure over", []bound{client, server}, true, []string{"FAIL ServerCycleRatio: 3.70 x-encode, over its bound 3.60 (goal 3.00 + 20%)"}},
		{"a benchmark missing", []bound{missing}, true, []string{"Gone                                 1.20      -  none"}},
		{"a unit missing", []bound{{"BenchmarkServerCycleRatio", "x-decode", 9}}, true, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := judge(parse([]byte(sample)), tt.bounds)
			if got := errors.Is(err, ErrOverBound); got != tt.fail {
				t.Errorf("judge: %v, want failing %v", err, tt.fail)
			}
			var b bytes.Buffer
			report(&b, vs)
			for _, l := range tt.report {
				if !strings.Contains(b.String(), l+"\n") {
					t.Errorf("report lacks %q:\n%s", l, b.String())
				}
			}
			for l := range strings.Lines(b.String()) {
				if n := len([]rune(strings.TrimSuffix(l, "\n"))); n > 80 {
					t.Errorf("report line of %d columns: %q", n, l)
				}
			}
		})
	}
}
