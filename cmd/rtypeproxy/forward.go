package main

import (
	"time"

	"github.com/rtypeproto/rtype/netem"
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
	v := verdict{wait: o.Wait, reordered: o.Reordered, dup: o.Dup}
	atOnce, ok := p.hold(c, dir, b, now, o.Wait)
	if !ok {
		st.drops[dropMemory].Add(1)
		p.logDatagram(c.addr, dir, b, now, verdict{dropped: true, reason: dropMemory})
		return
	}
	st.passed.Add(1)
	st.delaySum.Add(int64(o.Wait))
	dupAtOnce := false
	if o.Dup {
		st.dups.Add(1)
		if dupAtOnce, ok = p.hold(c, dir, b, now, o.DupWait); !ok {
			st.drops[dropMemory].Add(1)
			v.dup = false
		}
	}
	v.held = !atOnce
	p.logDatagram(c.addr, dir, b, now, v)
	if atOnce {
		p.send(c, dir, b)
	}
	if v.dup && dupAtOnce {
		p.send(c, dir, b)
	}
}

// hold gives a copy to the scheduler when it has to wait, or when earlier
// datagrams of its direction still wait there, so that it does not pass
// them: the scheduler may wake late for the ones already due. atOnce is
// true when the caller sends it itself; ok is false when the bytes held
// are at their bound.
func (p *proxy) hold(c *client, dir direction, b []byte, now time.Time, wait time.Duration) (atOnce, ok bool) {
	if wait <= 0 && c.held[dir].Load() == 0 {
		return true, true
	}
	c.held[dir].Add(1)
	if !p.sched.add(now.Add(max(wait, 0)), c, dir, b) {
		c.held[dir].Add(-1)
		return false, false
	}
	return false, true
}

// send delivers b to the server (up) or to the client (down); a failure
// is counted and logged, and send returns false.
func (p *proxy) send(c *client, dir direction, b []byte) bool {
	var err error
	if p.pcap != nil {
		err = p.pcap.deliver(c, dir, b)
	} else {
		err = p.write(c, dir, b)
	}
	st := &c.stats[dir]
	if err != nil {
		st.drops[dropSend].Add(1)
		if p.log != nil {
			p.log.sendFailed(c.addr, dir, b, err)
		}
		return false
	}
	st.out.Add(1)
	return true
}

// pcapSendTimeout bounds a send while -pcap is on: it is made under the
// pcap file's lock, so a socket that cannot send would stall every other.
const pcapSendTimeout = 100 * time.Millisecond

// write sends b on the socket of its direction; with -pcap, within
// pcapSendTimeout, or it fails.
func (p *proxy) write(c *client, dir direction, b []byte) error {
	var err error
	if dir == up {
		if p.pcap != nil {
			_ = c.conn.SetWriteDeadline(time.Now().Add(pcapSendTimeout))
		}
		_, err = c.conn.Write(b)
	} else {
		if p.pcap != nil {
			_ = p.ln.SetWriteDeadline(time.Now().Add(pcapSendTimeout))
		}
		_, err = p.ln.WriteToUDPAddrPort(b, c.addr)
	}
	return err
}

// sendHeld is the scheduler's delivery of a datagram that waited. One to
// the server moves the log's reading of its connection when it is
// delivered (§5.2, §7.3): until then the server has not got it.
func (p *proxy) sendHeld(h *held) {
	if p.send(h.c, h.dir, h.b) && h.dir == up && p.log != nil {
		p.log.delivered(h.c.addr, h.b)
	}
	h.c.held[h.dir].Add(-1)
}
