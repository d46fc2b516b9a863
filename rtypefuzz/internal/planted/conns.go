package planted

import (
	"net/netip"
	"time"
)

// Bounds of the connection table (§12: every table the network can grow
// is bounded). A careful server also closes a silent connection, which
// version 1 does not (§13.3), so that clients gone without Disconnect do
// not keep it full.
const (
	maxPeers    = 64
	idleTimeout = 10 * time.Second
)

// peer is one connection (§4, §5).
type peer struct {
	id   uint32
	addr netip.AddrPort
	// seq is the last sequence sent, 0 before the first packet (§5.2).
	seq   uint32
	win   window
	heard time.Time
	// inputs is set once an Input was accepted, lastInput its sequence.
	inputs    bool
	lastInput uint32
	actions   byte
	ship      *entity
	slot      int
	// out are the messages, headers included, for the next packet.
	out [][]byte
}

// open creates the connection of addr, with the next id, never 0 (§4.3).
func (s *server) open(addr netip.AddrPort) *peer {
	s.lastConn++
	if s.lastConn == 0 {
		s.lastConn = 1
	}
	p := &peer{id: s.lastConn, addr: addr, heard: s.now, slot: -1}
	s.peers[addr] = p
	return p
}

// quietest returns the connection heard from longest ago.
func (s *server) quietest() *peer {
	var q *peer
	for _, p := range s.peers {
		if q == nil || p.heard.Before(q.heard) {
			q = p
		}
	}
	return q
}

// leave closes p's connection; the others see its ship go (§7.3).
func (s *server) leave(p *peer) {
	delete(s.peers, p.addr)
	s.unjoin(p)
}

// expire closes the connections silent for idleTimeout.
func (s *server) expire() {
	for _, p := range s.peers {
		if s.now.Sub(p.heard) >= idleTimeout {
			s.leave(p)
		}
	}
}

// admit takes the connections welcomed since the last tick into the game,
// those still open.
func (s *server) admit() {
	for _, p := range s.joining {
		if s.peers[p.addr] == p {
			s.join(p)
		}
	}
	s.joining = s.joining[:0]
}
