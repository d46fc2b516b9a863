// Command ratios is the gate against drift: it runs the ratio benchmarks
// (the codec against an unchecked decoder, the session's Snapshot paths
// against the codec, the smooth view's frame against a decode), takes the
// median of each over -count runs, and fails when one is over its bound,
// printing the bound and the figure. A ratio measured within one run, in
// alternating batches, holds on a shared machine where times do not.
//
//	scripts/ratios.sh                  # run, print the table, fail if over
//	scripts/ratios.sh -count 9         # more runs, a steadier median
//	go test -bench … | scripts/ratios.sh -in -    # judge output at hand
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// packages are the benchmarks' packages and the pattern that selects them.
var packages = []struct{ dir, pattern string }{
	{".", "^BenchmarkRatio$"},
	{"./session", "^(BenchmarkClientSnapshotRatio|BenchmarkServerCycleRatio|BenchmarkViewFrameRatio)$"},
}

func main() {
	count := flag.Int("count", 5, "runs of each benchmark; the median is judged")
	benchtime := flag.String("benchtime", "400ms", "go test -benchtime of each run")
	in := flag.String("in", "", "judge this go test -bench output (- for stdin) instead of running")
	flag.Parse()
	out, err := output(*in, *count, *benchtime)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(2)
	}
	verdicts, err := judge(parse(out), bounds)
	report(os.Stdout, verdicts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

// output returns the benchmarks' output: read from in, or run.
func output(in string, count int, benchtime string) ([]byte, error) {
	switch in {
	case "":
	case "-":
		return io.ReadAll(os.Stdin)
	default:
		return os.ReadFile(in)
	}
	var all bytes.Buffer
	for _, p := range packages {
		cmd := exec.Command("go", "test", "-run", "^$", "-bench", p.pattern,
			"-count", fmt.Sprint(count), "-benchtime", benchtime, p.dir)
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		all.Write(out)
		if err != nil {
			os.Stderr.Write(out)
			return nil, fmt.Errorf("%s: %v", strings.Join(cmd.Args, " "), err)
		}
	}
	return all.Bytes(), nil
}
