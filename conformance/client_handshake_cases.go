package conformance

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// clientHandshakeCases are the §3 and §4 rules as a client keeps them:
// what it sends before Welcome, which handshake datagrams it takes, from
// whom.
var clientHandshakeCases = []Case{
	{ID: "3/1", Level: Must, Title: "a client MUST ignore datagrams that do not come from the server address and port: a Welcome from another port", run: func(t *check) {
		r := t.startClient()
		f := r.foreign()
		bad := r.h.id()
		r.ignoredWelcome(fmtWelcome(bad, "from "+f.local.String()+", not the server's address"), f, func() {
			f.sendTo(r.to, rtype.AppendWelcome(nil, bad))
		})
	}},
	{ID: "3/2", Level: Must, Title: "a client MUST ignore datagrams that do not come from the server address and port: a connected packet from another port", run: func(t *check) {
		r := t.connect()
		f := r.foreign()
		seq := r.seq + 1
		x := badID(seq)
		b := r.packet(seq, r.snap(x))
		r.dropped(drop{what: fmtPacket(seq, x, "with the client's connectionId, from "+f.local.String()+", not the server's address"), ids: []uint32{x}, seq: seq}, func() {
			f.sendTo(r.to, b)
			r.seq = seq
		})
	}},
	{ID: "4.1/1", Level: Must, Title: "Hello is the 6-byte handshake header alone: magic 0x52545950, version 1, type 1", run: func(t *check) {
		r := t.startClient()
		if len(r.hellos) == 0 {
			t.Failf("the client's first datagram was not a Hello (want the 6 bytes %s)", hex(rtype.AppendHello(nil)))
		}
		// The Hellos that follow until a Welcome must be the same bytes.
		if dg, ok := r.await(r.t.within(1200*time.Millisecond), func(dg datagram) bool { return !isHello(dg.b) }); ok {
			t.Failf("before any Welcome the client sent %d bytes %s at %v, not a Hello (want %s)", len(dg.b), hex(dg.b), t.at(dg.at), hex(rtype.AppendHello(nil)))
		}
	}},
	{ID: "4.1/2", Level: Must, Title: "magic MUST be 0x52545950 and version MUST be 1: a Welcome with another magic or version is no Welcome", run: func(t *check) {
		r := t.startClient()
		magic, version := r.h.id(), r.h.id()
		bm := rtype.AppendWelcome(nil, magic)
		bm[3] = 'Q' // "RTYQ"
		bv := rtype.AppendWelcome(nil, version)
		bv[4] = 2
		r.ignoredWelcome("a Welcome with magic RTYQ (connectionId "+itoa(magic)+") and one with version 2 (connectionId "+itoa(version)+")", nil, func() {
			r.sendRaw(bm)
			r.sendRaw(bv)
		})
	}},
	{ID: "4.2/1", beside: true, Level: Should, Title: "the client SHOULD resend Hello every second until it receives Welcome or Rejected", needs: 4 * time.Second, run: func(t *check) {
		r := t.startClient()
		r.await(r.t.within(3300*time.Millisecond), func(datagram) bool { return len(r.hellos) >= 4 })
		if len(r.hellos) < 3 {
			t.Failf("%d Hello(s) within 3.3 s of the first, without an answer: want one about every second", len(r.hellos))
		}
		for i := 1; i < len(r.hellos); i++ {
			if gap := r.hellos[i].Sub(r.hellos[i-1]); gap < helloMin || gap > helloMax {
				t.Failf("Hello %d came %v after Hello %d: want about 1 s (%v to %v)", i+1, gap.Round(time.Millisecond), i, helloMin, helloMax)
			}
		}
	}},
	{ID: "4.2/2", beside: true, Level: Should, Title: "the client SHOULD give up after 10 seconds", needs: 15 * time.Second, run: func(t *check) {
		r := t.startClient()
		r.unwelcome.Store(true)
		if len(r.hellos) == 0 {
			t.Skipf("the client's first datagram was not a Hello")
		}
		start := r.hellos[0]
		late := func(dg datagram) bool { return isHello(dg.b) && dg.at.Sub(start) > giveUpBy }
		if dg, ok := r.await(r.t.within(time.Until(start.Add(giveUpBy+500*time.Millisecond))), late); ok {
			t.Failf("a Hello came %v after the first, with no answer: want none after about 10 s (%v)", dg.at.Sub(start).Round(time.Millisecond), giveUpBy)
		}
		if last := r.lastHello.Sub(start); last < giveUpMin {
			t.Failf("the last Hello came %v after the first: the client gave up long before 10 s", last.Round(time.Millisecond))
		}
	}},
	{ID: "4.3/1", Level: Must, Title: "the client MUST check that a Welcome is exactly 10 bytes long, and MUST ignore it otherwise", run: func(t *check) {
		r := t.startClient()
		bad := r.h.id()
		long := append(rtype.AppendWelcome(nil, bad), 0)
		short := rtype.AppendWelcome(nil, bad)[:9]
		r.ignoredWelcome("an 11-byte Welcome (connectionId "+itoa(bad)+" and a 0 byte) and a 9-byte one", nil, func() {
			r.sendRaw(long)
			r.sendRaw(short)
		})
	}},
	{ID: "4.3/2", Level: Must, Title: "the client MUST check that connectionId is not 0, and MUST ignore the Welcome otherwise", run: func(t *check) {
		r := t.startClient()
		zero := append(rtype.AppendHello(nil)[:5], byte(rtype.HandshakeWelcome), 0, 0, 0, 0)
		r.ignoredWelcome("a Welcome with connectionId 0", nil, func() { r.sendRaw(zero) })
	}},
	{ID: "4.3/3", late: true, Level: Must, Title: "once a Welcome is accepted, the client writes connectionId in the header of every packet it sends", needs: idWatch + firstPacket, run: func(t *check) {
		r := t.startClient()
		r.welcome(r.h.id())
		welcomed := r.t.since()
		n := 0
		until, wait := r.t.upTo(idWatch + firstPacket)
		var first time.Time
		dg, ok := r.await(until, func(dg datagram) bool {
			if isHello(dg.b) && dg.at.Sub(r.t.start) < welcomed+inFlight {
				return false // sent before the Welcome came
			}
			if n++; n == 1 {
				first = dg.at
			}
			return !connected(dg.b) || connID(dg.b) != r.id || dg.at.Sub(first) >= idWatch
		})
		switch {
		case n == 0:
			t.waitedOut("welcomed as connection %d at %v, the client sent no packet within %v", r.id, welcomed, wait)
		case ok && !connected(dg.b):
			t.Failf("welcomed as connection %d at %v; datagram %d after it, at %v, is %d bytes %s: no packet header", r.id, welcomed, n, t.at(dg.at), len(dg.b), hex(dg.b))
		case ok && connID(dg.b) != r.id:
			t.Failf("welcomed as connection %d at %v; packet %d after it, at %v, carries connectionId %d", r.id, welcomed, n, t.at(dg.at), connID(dg.b))
		}
		t.overRun(nil)
	}},
	{ID: "4.4/1", Level: Must, Title: "on Rejected, the client MUST stop trying to connect", needs: 3 * time.Second, run: func(t *check) {
		r := t.startClient()
		r.unwelcome.Store(true)
		r.sendRaw(rtype.AppendRejected(nil))
		sent := time.Now()
		if dg, ok := r.await(r.t.within(2500*time.Millisecond), func(dg datagram) bool { return dg.at.Sub(sent) > inFlight }); ok {
			t.Failf("sent Rejected at %v; the client sent %d bytes %s at %v: it kept trying", t.at(sent), len(dg.b), hex(dg.b), t.at(dg.at))
		}
	}},
	{ID: "4.4/2", Level: Must, Title: "the client MUST ignore a Rejected datagram that has extra bytes", needs: 4 * time.Second, run: func(t *check) {
		r := t.startClient()
		if r.exited() != "" {
			t.Skipf("the client exited after its first Hello, before any answer")
		}
		r.sendRaw(append(rtype.AppendRejected(nil), 0))
		sent := time.Now()
		// Another Hello shows it at once; without one, a Welcome tells.
		r.await(r.t.within(1500*time.Millisecond), func(dg datagram) bool { return dg.at.Sub(sent) > inFlight })
		r.welcome(r.h.id())
		welcomed := r.t.since()
		until, wait := r.t.upTo(firstPacket)
		dg, ok := r.await(until, func(dg datagram) bool { return connected(dg.b) })
		if !ok {
			t.Failf("sent a 7-byte Rejected (a 0 byte after it) at %v, then a Welcome with connectionId %d at %v: no packet within %v: the client stopped trying",
				t.at(sent), r.id, welcomed, wait)
		}
		if connID(dg.b) != r.id {
			t.Skipf("welcomed as connection %d, the client's packet at %v carries connectionId %d (case 4.3/3)", r.id, t.at(dg.at), connID(dg.b))
		}
	}},
}

// The §4.2 timings, judged kindly: a Hello about every second, none once
// about 10 s have passed, and not given up long before.
const (
	helloMin  = 500 * time.Millisecond
	helloMax  = 1500 * time.Millisecond
	giveUpBy  = 12 * time.Second
	giveUpMin = 7500 * time.Millisecond
)

func fmtWelcome(id uint32, how string) string {
	return "a Welcome with connectionId " + itoa(id) + " " + how
}

func fmtPacket(seq, id uint32, how string) string {
	return "packet " + itoa(seq) + ", a Snapshot listing id " + itoa(id) + ", " + how
}
