package main

import (
	"cmp"
	"slices"
)

// maxPorts bounds the UDP ports portTally counts, whatever the capture
// holds.
const maxPorts = 64

// portTally counts the UDP datagrams of a capture by port, the first
// maxPorts ports seen, so that a capture without an R-Type client says
// which ports it holds.
type portTally struct {
	seen map[uint16]int // datagrams per port, either end
}

// add counts a UDP datagram between ports a and b.
func (p *portTally) add(a, b uint16) {
	if p.seen == nil {
		p.seen = map[uint16]int{}
	}
	for _, port := range [2]uint16{a, b} {
		if _, ok := p.seen[port]; ok || len(p.seen) < maxPorts {
			p.seen[port]++
		}
	}
}

// busiest returns at most n ports counted, the most datagrams first, the
// lower port first among equals.
func (p *portTally) busiest(n int) []uint16 {
	ports := make([]uint16, 0, len(p.seen))
	for q := range p.seen {
		ports = append(ports, q)
	}
	slices.SortFunc(ports, func(a, b uint16) int {
		return cmp.Or(cmp.Compare(p.seen[b], p.seen[a]), cmp.Compare(a, b))
	})
	return ports[:min(len(ports), n)]
}
