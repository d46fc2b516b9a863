package conformance

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// poll reads the client's datagrams until deadline and returns the first
// message match accepts; a nil match reads until deadline. Before the
// Welcome, datagrams are handshake datagrams; after it, connected packets
// of the client's connection, each valid one taken into the window.
func (r *remote) poll(deadline time.Time, match func(m cmsg) bool) (cmsg, bool) {
	for {
		dg, ok := r.recvAny(deadline)
		if !ok {
			return cmsg{}, false
		}
		if dg.from != r.addr {
			r.others++
			continue
		}
		if m, ok := r.take(dg, match); ok {
			return m, true
		}
	}
}

func (r *remote) take(dg datagram, match func(m cmsg) bool) (cmsg, bool) {
	if r.id == 0 {
		r.hello(dg)
		return cmsg{}, false
	}
	pk, err := rtype.ParsePacket(dg.b)
	if err == nil && pk.Header().ConnectionID != r.id {
		err = fmt.Errorf("connectionId %d, not %d", pk.Header().ConnectionID, r.id)
	}
	if err != nil {
		if len(dg.b) == 6 {
			if typ, _, herr := rtype.ParseHandshake(dg.b); herr == nil && typ == rtype.HandshakeHello {
				r.addHello(dg.at)
				return cmsg{}, false
			}
		}
		r.invalid++
		if r.invalidWhy == "" {
			r.invalidWhy = fmt.Sprintf("a %d-byte datagram at %v: %v", len(dg.b), r.t.since(), err)
		}
		return cmsg{}, false
	}
	h := pk.Header()
	if !r.win.Receive(h.Sequence).Accept() {
		return cmsg{}, false
	}
	var found cmsg
	hit := false
	see := func(m cmsg) {
		if r.observe != nil {
			r.observe(m)
		}
		if !hit && match != nil && match(m) {
			found, hit = m, true
		}
	}
	n := 0
	for raw := range pk.Messages() {
		n++
		see(cmsg{hdr: h, raw: raw, size: len(dg.b), at: dg.at})
	}
	if n == 0 {
		see(cmsg{hdr: h, size: len(dg.b), at: dg.at})
	}
	return found, hit
}

// expect waits up to d for a message match accepts.
func (r *remote) expect(d time.Duration, match func(m cmsg) bool) (cmsg, bool) {
	return r.poll(r.t.within(d), match)
}

// settle reads for d.
func (r *remote) settle(d time.Duration) { r.poll(r.t.within(d), nil) }

// quit makes the client's player quit and waits for it to end; the case is
// skipped when the suite cannot make it quit (no command).
func (r *remote) quit() {
	if r.stop == nil {
		r.t.Skipf("needs a client the suite can make quit: give rtypecheck the client's command")
	}
	r.stop()
}

// isType matches messages of type typ.
func isType(typ rtype.MessageType) func(m cmsg) bool {
	return func(m cmsg) bool { return m.raw.Type == typ }
}

// queried matches a QueryEntity for id.
func queried(id uint32) func(m cmsg) bool {
	return func(m cmsg) bool {
		var q rtype.QueryEntity
		return m.raw.Type == rtype.TypeQueryEntity && q.UnmarshalBinary(m.raw.Payload) == nil && q.NetworkID == id
	}
}
