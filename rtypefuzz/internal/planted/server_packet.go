package planted

import "net/netip"

// packet applies §5.4, §5.2 and §5.3 to a datagram from p's address, then
// handles its messages.
func (s *server) packet(p *peer, d []byte) {
	if len(d) < headerSize || be.Uint32(d) != p.id {
		return // §5.4: too short, or not this address's connection
	}
	seq := be.Uint32(d[4:])
	if !p.win.classify(seq, s.bug == WrapAround).accepted() {
		return // duplicate or too old (§5.2)
	}
	msgs, ok := s.split(d[headerSize:])
	if !ok {
		return // the whole packet (§5.3)
	}
	p.win.record(seq)
	p.heard = s.now
	for _, m := range msgs {
		if s.peers[p.addr] != p {
			return // it left (§7.3)
		}
		s.handle(p, m)
	}
}

// split cuts the message area into s.msgs (§5.3). With UnboundedCount the
// author's array holds 8 messages, "more than a packet ever carries", and
// nothing bounds the index; with TrustedLength sizes are trusted up to
// 548 bytes.
func (s *server) split(area []byte) ([]message, bool) {
	msgs := s.msgs[:]
	if s.bug == UnboundedCount {
		msgs = s.msgs[:8:8]
	}
	n, ok := splitMessages(area, msgs, s.bug == TrustedLength)
	return msgs[:n], ok
}

// queue adds message m to p's next packet.
func (p *peer) queue(m []byte) { p.out = append(p.out, m) }

// flush sends p's queued messages, as many packets of at most 548 bytes
// as they need, each numbered and acknowledging (§5.1, §5.2).
func (s *server) flush(p *peer) {
	for len(p.out) > 0 {
		p.seq++
		ack, bits := p.win.acks()
		b := appendHeader(make([]byte, 0, maxDatagram), p.id, p.seq, ack, bits)
		i := 0
		for ; i < len(p.out) && len(b)+len(p.out[i]) <= maxDatagram; i++ {
			b = append(b, p.out[i]...)
		}
		p.out = p.out[i:]
		s.send(p.addr, b)
	}
	p.out = nil
}

// send writes b to addr; a failed write is a lost datagram (§5.2).
func (s *server) send(addr netip.AddrPort, b []byte) {
	_, _ = s.conn.WriteToUDPAddrPort(b, addr)
}
