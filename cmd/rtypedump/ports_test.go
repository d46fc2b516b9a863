package main

import (
	"strings"
	"testing"
)

func TestPortTally(t *testing.T) {
	var none portTally
	if h := none.hint(4242); h != "" {
		t.Errorf("no UDP at all: hint %q, want none", h)
	}
	var hit portTally
	hit.add(4242, 5000, true)
	hit.add(53, 5353, false)
	if h := hit.hint(4242); h != "" {
		t.Errorf("a datagram matched -port: hint %q, want none", h)
	}
	var other portTally
	for i := range 3 {
		other.add(5000, uint16(40000+i), false)
	}
	other.add(53, 1234, false)
	want := "port 4242; UDP ports seen, with datagrams: 5000 (3), 53 (1), 1234 (1), 40000 (1), 40001 (1);"
	if h := other.hint(4242); !strings.Contains(h, want) {
		t.Errorf("hint %q, want it to contain %q", h, want)
	}
	// A capture of any number of ports is counted in bounded memory.
	var many portTally
	for i := range 10000 {
		many.add(uint16(i), uint16(i+10000), false)
	}
	if len(many.seen) > maxPorts {
		t.Errorf("%d ports kept, want at most %d", len(many.seen), maxPorts)
	}
}
