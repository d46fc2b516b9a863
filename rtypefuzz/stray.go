package rtypefuzz

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// sendStray sends, from a socket that never sent a Hello, an invalid
// datagram: an implementation must drop it unanswered (§12), or it
// amplifies floods with spoofed sources.
func (r *run) sendStray(i uint64) {
	if r.stray == nil {
		s, err := dial(r.o.Network, r.bind, r.target, Server)
		if err != nil {
			return
		}
		r.stray = s
	}
	// A context of no connection: its id one the server never gave,
	// drawn as datagram i's.
	mut := r.sched.mut
	mut.at(i)
	ctx := Context{Target: Server, Conn: mut.u32() | 1, Seq: r.fuzz.ctx.Seq}
	m := mut.Next(&ctx)
	if t, _, err := rtype.ParseHandshake(m.Bytes); err == nil && t == rtype.HandshakeHello {
		return // a valid Hello is answered, as it must be (§4.3)
	}
	r.stray.send(m.Bytes)
	r.trace(i, "stray: "+m.What, m.Bytes)
	r.stray.sent = keepStray(r.stray.sent, Datagram{At: time.Since(r.stray.start), Out: true, From: r.stray.local, To: r.target, Bytes: m.Bytes})
}

// strayIn is the stray socket's answers, nil (never ready) before one is open.
func (r *run) strayIn() <-chan Datagram {
	if r.stray == nil {
		return nil
	}
	return r.stray.in
}
