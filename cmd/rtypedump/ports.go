package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// maxPorts bounds the UDP ports portTally counts, whatever the capture
// holds.
const maxPorts = 64

// portTally counts the UDP datagrams of a capture by port, so that a
// capture whose server is on another port than -port says which ports it
// holds instead of printing nothing.
type portTally struct {
	matched int            // datagrams to or from -port
	seen    map[uint16]int // datagrams per port, either end
}

// add counts a UDP datagram between ports a and b; matched tells whether
// one of them is -port.
func (p *portTally) add(a, b uint16, matched bool) {
	if matched {
		p.matched++
		return
	}
	if p.seen == nil {
		p.seen = map[uint16]int{}
	}
	for _, port := range []uint16{a, b} {
		if _, ok := p.seen[port]; ok || len(p.seen) < maxPorts {
			p.seen[port]++
		}
	}
}

// hint returns, when no datagram matched -port but some UDP came, a line
// naming the busiest ports seen; "" otherwise.
func (p *portTally) hint(port uint16) string {
	if p.matched > 0 || len(p.seen) == 0 {
		return ""
	}
	ports := make([]uint16, 0, len(p.seen))
	for q := range p.seen {
		ports = append(ports, q)
	}
	slices.SortFunc(ports, func(a, b uint16) int {
		return cmp.Or(cmp.Compare(p.seen[b], p.seen[a]), cmp.Compare(a, b))
	})
	var list []string
	for _, q := range ports[:min(len(ports), 5)] {
		list = append(list, fmt.Sprintf("%d (%d)", q, p.seen[q]))
	}
	return fmt.Sprintf("no UDP datagram to or from port %d; UDP ports seen, with datagrams: %s; is the server on one of them (-port)?",
		port, strings.Join(list, ", "))
}
