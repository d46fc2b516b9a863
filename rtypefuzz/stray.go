package rtypefuzz

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// aside sends datagram i as a stray one, every strayEvery: from a socket
// that never sent a Hello, an invalid datagram, which a server must drop
// unanswered (§12), or it amplifies floods with spoofed sources.
func (r *serverRole) aside(i uint64) (string, []byte, bool) {
	if i%strayEvery != strayEvery/2+keepEvery/2 {
		return "", nil, false
	}
	if r.stray == nil {
		s, err := dial(r.e.o.Network, r.bind, r.target, Server)
		if err != nil {
			return "", nil, true
		}
		r.stray = s
	}
	// A context of no connection: its id one the server never gave,
	// drawn as datagram i's.
	mut := r.e.sched.mut
	mut.at(i)
	ctx := Context{Target: Server, Conn: mut.u32() | 1, Seq: r.fuzz.ctx.Seq}
	m := mut.Next(&ctx)
	if t, _, err := rtype.ParseHandshake(m.Bytes); err == nil && t == rtype.HandshakeHello {
		return "", nil, true // a valid Hello is answered, as it must be (§4.3)
	}
	r.stray.send(m.Bytes)
	// The answer read may be to any of the last ones, a slow server's
	// answers coming in late.
	r.strayed.add(Datagram{At: time.Since(r.stray.start), Out: true, From: r.stray.local, To: r.target, Bytes: m.Bytes})
	return "stray: " + m.What, m.Bytes, true
}

// strayIn is the stray socket's answers, nil (never ready) before one is open.
func (r *serverRole) strayIn() <-chan Datagram {
	if r.stray == nil {
		return nil
	}
	return r.stray.in
}
