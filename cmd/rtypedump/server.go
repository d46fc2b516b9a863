package main

import (
	"net/netip"

	"github.com/rtypeproto/rtype"
)

// maxHellos bounds the Hellos the finder remembers while they wait for a
// Welcome. A Welcome comes a round trip after its Hello: only a flood of
// Hellos in between makes the finder forget one.
const maxHellos = 1024

// evidence is how a capture shows its server, weakest first.
type evidence uint8

const (
	noEvidence evidence = iota
	// byHellos: Hellos went to it and none was answered (§4.2).
	byHellos
	// byPackets: valid connected packets name it (§5.1, §6).
	byPackets
	// byWelcome: it answered a Hello with a Welcome (§4.2, §4.3).
	byWelcome
)

// flow is a Hello's way: from a client to a server.
type flow struct{ client, server netip.AddrPort }

// portSet is a set of UDP ports, a bit each.
type portSet [1 << 10]uint64

func (s *portSet) add(p uint16)      { s[p>>6] |= 1 << (p & 63) }
func (s *portSet) has(p uint16) bool { return s[p>>6]&(1<<(p&63)) != 0 }

// size is how many ports s holds.
func (s *portSet) size() int {
	n := 0
	for _, w := range s {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// serverFinder watches the UDP datagrams of a capture for its server, in
// bounded memory: the address that answers a Hello with a Welcome is the
// server (§4.2, §4.3); without one, the port that most valid connected
// packets (§5.1) name the server's is. A packet names its destination,
// but for one carrying only server messages (§6: types 0x80 to 0xFF),
// which names its source: the client sends an Input every frame (§7.1)
// and the server a Snapshot every 3 ticks (§10), so the server's port
// wins either way, and ties go to the lower port, servers' ports being
// below the ephemeral ones clients get.
type serverFinder struct {
	datagrams int       // UDP datagrams seen
	ports     portSet   // ports at either end of them
	busy      portTally // datagrams of the busiest ports

	// hellos are the Hellos waiting for a Welcome, ring their order,
	// the oldest forgotten first past maxHellos.
	hellos     map[flow]struct{}
	ring       [maxHellos]flow
	next       int
	helloCount int
	firstHello netip.AddrPort // where the first Hello went

	answer   netip.AddrPort // the first address to answer a Hello
	answered portSet        // ports that answered a Hello with a Welcome

	packets     int              // valid connected packets
	packetPorts portSet          // ports at either end of them
	votes       *[1 << 16]uint32 // packets naming each port the server's
	best        uint16           // the port with the most votes
}

// add looks at one UDP datagram of the capture.
func (f *serverFinder) add(u *udpDatagram) {
	f.datagrams++
	f.ports.add(u.src.Port())
	f.ports.add(u.dst.Port())
	f.busy.add(u.src.Port(), u.dst.Port())
	if u.problem != nil {
		return // part of a datagram: no evidence
	}
	switch t, _, err := rtype.ParseHandshake(u.payload); {
	case err == nil && t == rtype.HandshakeHello:
		f.hello(flow{client: u.src, server: u.dst})
	case err == nil && t == rtype.HandshakeWelcome:
		f.welcome(flow{client: u.dst, server: u.src})
	case err != nil:
		f.packet(u)
	}
}

// hello remembers a Hello until its Welcome, or until maxHellos newer
// ones pushed it out.
func (f *serverFinder) hello(fl flow) {
	if f.helloCount == 0 {
		f.firstHello = fl.server
	}
	f.helloCount++
	if f.hellos == nil {
		f.hellos = make(map[flow]struct{})
	}
	if _, ok := f.hellos[fl]; ok {
		return // a Hello resent (§4.2)
	}
	if len(f.hellos) >= maxHellos {
		delete(f.hellos, f.ring[f.next])
	}
	f.hellos[fl] = struct{}{}
	f.ring[f.next] = fl
	f.next = (f.next + 1) % maxHellos
}

// welcome takes a Welcome that answers a Hello as the server's.
func (f *serverFinder) welcome(fl flow) {
	if _, ok := f.hellos[fl]; !ok {
		return
	}
	f.answered.add(fl.server.Port())
	if !f.answer.IsValid() {
		f.answer = fl.server
	}
}

// packet counts a valid connected packet: 16 bytes at least, a connection
// id not 0, messages that fill it exactly (§5.1, §5.3).
func (f *serverFinder) packet(u *udpDatagram) {
	p, err := rtype.ParsePacket(u.payload)
	if err != nil {
		return
	}
	f.packets++
	f.packetPorts.add(u.src.Port())
	f.packetPorts.add(u.dst.Port())
	server := u.dst.Port()
	if fromServer(p) {
		server = u.src.Port()
	}
	if f.votes == nil {
		f.votes = new([1 << 16]uint32)
	}
	f.votes[server]++
	v, b := f.votes[server], f.votes[f.best]
	if v > b || v == b && server < f.best {
		f.best = server
	}
}

// fromServer reports whether p carries messages of the server's types
// only (§6), one at least.
func fromServer(p rtype.Packet) bool {
	n := 0
	for m := range p.Messages() {
		if !m.Type.FromServer() {
			return false
		}
		n++
	}
	return n > 0
}

// server returns the capture's server port so far and how it showed.
func (f *serverFinder) server() (uint16, evidence) {
	switch {
	case f.answer.IsValid():
		return f.answer.Port(), byWelcome
	case f.packets > 0:
		return f.best, byPackets
	case f.helloCount > 0:
		return f.firstHello.Port(), byHellos
	}
	return 0, noEvidence
}

// clientOn reports whether port, the server's, had a client: it answered
// a Hello with a Welcome, or a connected packet went to or from it.
func (f *serverFinder) clientOn(port uint16) bool {
	return f.answered.has(port) || f.packetPorts.has(port)
}
