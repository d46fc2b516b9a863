package main

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// waiters is how many of the package's parallel tests run at once unless
// -parallel says otherwise.
const waiters = 8

// TestMain lets the package's tests run side by side beyond GOMAXPROCS,
// go test's default -parallel: each runs the suite against a server and
// spends its time waiting on the network, not the CPU, so on a 2-CPU
// machine two at a time would near double the package's time for nothing.
// An explicit -parallel is kept.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(waiters)); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
