package main

// The bounds the gate holds each ratio to: its goal and 20% headroom, as a
// ratio measured within one run holds on a shared machine to about that.
// A benchmark reports its ratio with b.ReportMetric in the unit given.
var bounds = []bound{
	// The codec against the unchecked decoder (docs/performance.md: the
	// 1.5× target), for each of the three datagrams.
	{"BenchmarkRatio/InputPacket", "x-unchecked", 1.5},
	{"BenchmarkRatio/SnapshotInOrder", "x-unchecked", 1.5},
	{"BenchmarkRatio/SnapshotShuffled", "x-unchecked", 1.5},
	// A 47-state Snapshot through a Playing client against its decode.
	{"BenchmarkClientSnapshotRatio", "x-decode", 1.5},
	// The server's side of a Snapshot cycle against its encoding.
	{"BenchmarkServerCycleRatio", "x-encode", 3},
	// The view's frame of 100 entities against the floor of such a frame,
	// the least it does (100 positions computed, written and read back).
	// Its first goal, under one Snapshot decode, is below that floor,
	// which costs about two decodes itself; this goal is the frame's
	// present cost, so that it does not drift further (docs/client.md).
	{"BenchmarkViewFrameRatio", "x-floor", 2},
}

// headroom is what a bound leaves over its goal.
const headroom = 1.2

// bound is a ratio benchmark and its goal.
type bound struct {
	name string  // benchmark name, without the -GOMAXPROCS suffix
	unit string  // the unit of its ReportMetric
	goal float64 // the ratio it should stay under
}

func (b bound) limit() float64 { return b.goal * headroom }
