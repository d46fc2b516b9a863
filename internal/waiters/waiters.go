// Package waiters lets a package's parallel tests run side by side beyond
// GOMAXPROCS, go test's default -parallel, when they spend their time
// waiting on the network or a timer, not on the CPU: on a 2-CPU machine
// two at a time would near double the package's time for nothing.
package waiters

import (
	"flag"
	"strconv"
	"testing"
)

// Run runs m's tests with -parallel n unless the command line sets
// -parallel, and returns the exit code for os.Exit. Call it from TestMain.
func Run(m *testing.M, n int) int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err)
		}
	}
	return m.Run()
}
