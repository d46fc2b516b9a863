package planted

// Action bits of Input (§7.1).
const (
	actUp       = 0x01
	actDown     = 0x02
	actLeft     = 0x04
	actRight    = 0x08
	actShoot    = 0x10
	actReserved = 0xE0
)

// hangMarker is the Ping timestamp the Hang bug takes for its own marker.
const hangMarker = 0xFFFFFFFF

// handle acts on one message from p; a message of a type the server does
// not know, or a malformed one, is ignored and the packet goes on (§6).
func (s *server) handle(p *peer, m message) {
	switch m.typ {
	case msgInput:
		s.input(p, m.p)
	case msgPing:
		s.ping(p, m.p)
	case msgDisconnect:
		if len(m.p) == leaveSize {
			if s.bug == DisconnectReason {
				s.tally(m.p[0])
			}
			s.leave(p) // the reason is not interpreted (§7.3)
		}
	case msgQueryEntity:
		s.query(p, m.p)
	}
}

// input applies an Input (§7.1): exactly 9 bytes, newer than the last
// accepted by signed difference, reserved bits clear.
func (s *server) input(p *peer, b []byte) {
	if len(b) != inputSize {
		return
	}
	seq, actions := be.Uint32(b), b[8]
	if p.inputs && int32(seq-p.lastInput) <= 0 || actions&actReserved != 0 {
		return
	}
	p.inputs, p.lastInput = true, seq
	fired := p.actions&actShoot != 0 && actions&actShoot == 0
	p.actions = actions
	if p.ship == nil {
		return
	}
	p.ship.vx, p.ship.vy = velocity(actions)
	if fired {
		s.fire(p.ship)
	}
}

// ping answers a Ping of exactly 4 bytes with a Pong of its timestamp
// (§7.2, §8.4).
func (s *server) ping(p *peer, b []byte) {
	if len(b) != pingSize {
		return
	}
	ts := be.Uint32(b)
	if s.bug == Hang && ts == hangMarker {
		s.stall()
	}
	p.queue(be.AppendUint32(appendMsgHeader(nil, msgPong, pingSize), ts))
}

// stall is the Hang bug: the author took the all-ones timestamp for the
// marker of a flush barrier and waits for its acknowledgement, which
// nothing sends. Only the end of the context frees the loop, unwound by
// the panic of hangUp, which protect turns into ErrHung.
func (s *server) stall() {
	select {
	case <-s.barrier:
	case <-s.ctx.Done():
		panic(hangUp{})
	}
}

// hangUp unwinds a hung loop once its context ended.
type hangUp struct{}

// query answers QueryEntity with the entity's CreateEntity if it exists,
// and drops a payload not 4 bytes or an id 0 (§7.4).
func (s *server) query(p *peer, b []byte) {
	if len(b) != querySize {
		return
	}
	id := be.Uint32(b)
	if s.bug == IDZero {
		s.queryTrusting(p, id)
		return
	}
	e := s.world.byID[id]
	if id == 0 || e == nil {
		return // never existed, or gone: no answer (§7.4)
	}
	p.queue(s.createMsg(e))
}

// queryTrusting is the IDZero bug: "ids are allocated in order from 1, so
// an id up to the last one allocated is either destroyed or in the map".
// 0 is neither: its map entry is nil, and describing it dereferences nil.
func (s *server) queryTrusting(p *peer, id uint32) {
	if id > s.world.lastID || s.world.gone.has(id) {
		return
	}
	p.queue(s.createMsg(s.world.byID[id]))
}

// tally is the DisconnectReason bug: the share of a departure's reason
// among the departures, divided by the count of that reason's, which a
// reason past the table of §7.3 leaves at 0.
func (s *server) tally(reason byte) {
	s.departures++
	var same int
	if int(reason) < len(s.byReason) {
		s.byReason[reason]++
		same = s.byReason[reason]
	}
	s.share = s.departures * 100 / same
}
