package main

import (
	"time"

	"github.com/rtypeproto/rtype/cmd/rtypeproxy/internal/netem"
)

// forward passes datagram b, which arrived at now from c's side dir, through
// the link of that direction: it is sent at once, held for later, or
// dropped, and logged with the verdict. b is only read before it returns.
func (p *proxy) forward(c *client, dir direction, b []byte, now time.Time) {
	st := &c.stats[dir]
	st.in.Add(1)
	if p.pcap != nil {
		p.pcap.arrived(c, dir, b)
	}
	var o netem.Outcome
	if l := c.links[dir]; l != nil {
		o = l.Decide(now, len(b))
	}
	if o.Drop != netem.NotDropped {
		r := linkDrop(o.Drop)
		st.drops[r].Add(1)
		p.logDatagram(c.addr, dir, b, now, verdict{dropped: true, reason: r})
		return
	}
	welcome := p.log != nil && dir == down && isWelcome(b)
	v := verdict{wait: o.Wait, reordered: o.Reordered, dup: o.Dup}
	if !p.hold(c, dir, b, now, o.Wait, welcome) {
		st.drops[dropMemory].Add(1)
		p.logDatagram(c.addr, dir, b, now, verdict{dropped: true, reason: dropMemory})
		return
	}
	st.passed.Add(1)
	st.delaySum.Add(int64(o.Wait))
	if o.Dup {
		st.dups.Add(1)
		if !p.hold(c, dir, b, now, o.DupWait, welcome) {
			st.drops[dropMemory].Add(1)
			v.dup = false
		}
	}
	p.logDatagram(c.addr, dir, b, now, v)
	if o.Wait <= 0 {
		p.send(c, dir, b, welcome)
	}
	if v.dup && o.DupWait <= 0 {
		p.send(c, dir, b, welcome)
	}
}

// hold gives a copy to the scheduler when it has to wait; false when the
// bytes held are at their bound.
func (p *proxy) hold(c *client, dir direction, b []byte, now time.Time, wait time.Duration, welcome bool) bool {
	if wait <= 0 {
		return true
	}
	return p.sched.add(now.Add(wait), c, dir, welcome, b)
}

// send delivers b to the server (up) or to the client (down).
func (p *proxy) send(c *client, dir direction, b []byte, welcome bool) {
	var err error
	if p.pcap != nil {
		err = p.pcap.deliver(c, dir, b)
	} else {
		err = p.write(c, dir, b)
	}
	st := &c.stats[dir]
	if err != nil {
		st.drops[dropSend].Add(1)
		return
	}
	st.out.Add(1)
	if welcome {
		p.log.welcomed(c.addr, b)
	}
}

// write sends b on the socket of its direction.
func (p *proxy) write(c *client, dir direction, b []byte) error {
	var err error
	if dir == up {
		_, err = c.conn.Write(b)
	} else {
		_, err = p.ln.WriteToUDPAddrPort(b, c.addr)
	}
	return err
}

// sendHeld is the scheduler's delivery of a datagram that waited.
func (p *proxy) sendHeld(h *held) {
	p.send(h.c, h.dir, h.b, h.welcome)
}
