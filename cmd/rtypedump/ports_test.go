package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPortTally(t *testing.T) {
	var none portTally
	if got := none.busiest(5); len(got) != 0 {
		t.Errorf("no UDP at all: busiest %v, want none", got)
	}
	var other portTally
	for i := range 3 {
		other.add(5000, uint16(40000+i))
	}
	other.add(53, 1234)
	want := []uint16{5000, 53, 1234, 40000, 40001}
	if diff := cmp.Diff(want, other.busiest(5)); diff != "" {
		t.Errorf("busiest (-want +got):\n%s", diff)
	}
	// A capture of any number of ports is counted in bounded memory.
	var many portTally
	for i := range 10000 {
		many.add(uint16(i), uint16(i+10000))
	}
	if len(many.seen) > maxPorts {
		t.Errorf("%d ports kept, want at most %d", len(many.seen), maxPorts)
	}
}
