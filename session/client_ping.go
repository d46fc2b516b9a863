package session

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// Round trips (§7.2). A Ping's timestamp is any u32: this client sends
// milliseconds since its first Update, for readable captures, but measures
// with the send time kept per timestamp, as precise as the caller's times.

// pingSlots bounds the Pings awaiting a Pong: one 8 s late is of no use.
const pingSlots = 8

// sentPing is one Ping awaiting its Pong; ts 0 marks a free slot.
type sentPing struct {
	ts uint32
	at time.Time
}

// pingRing remembers the Pings not answered yet.
type pingRing struct {
	p      [pingSlots]sentPing
	next   int
	lastTS uint32
}

// add records a Ping sent at now and returns its timestamp, milliseconds
// since start plus one, never 0 nor the last, so a Pong matches one Ping.
func (r *pingRing) add(start, now time.Time) uint32 {
	ts := uint32(now.Sub(start)/time.Millisecond) + 1
	if ts == 0 || ts == r.lastTS {
		ts = r.lastTS + 1
		if ts == 0 {
			ts = 1
		}
	}
	r.lastTS = ts
	r.p[r.next] = sentPing{ts: ts, at: now}
	r.next = (r.next + 1) % pingSlots
	return ts
}

// match forgets the Ping that carried ts and returns when it was sent.
func (r *pingRing) match(ts uint32) (time.Time, bool) {
	if ts == 0 {
		return time.Time{}, false
	}
	for i := range r.p {
		if r.p[i].ts == ts {
			at := r.p[i].at
			r.p[i] = sentPing{}
			return at, true
		}
	}
	return time.Time{}, false
}

// addPing adds a Ping to the packet being built (§7.2).
func (c *Client) addPing(now time.Time) {
	add(c, rtype.Ping{Timestamp: c.pings.add(c.start, now)})
}

// pong folds the round trip of the Ping that carried ts into the SRTT and
// reports [EventPong] (§7.2, §8.4); false means no Ping matched.
func (c *Client) pong(ts uint32, now time.Time) bool {
	sent, ok := c.pings.match(ts)
	if !ok {
		return false
	}
	rtt := max(now.Sub(sent), 0)
	c.rtts.add(rtt)
	c.sampleRTT(c.addr, &c.srtt, rtt)
	c.pongs++
	c.events.push(ClientEvent{Kind: EventPong, RTT: rtt, At: now})
	return true
}

// rttWindow is the number of recent round trips whose least a client
// keeps: 8 s of Pings.
const rttWindow = 8

// recentRTTs keeps the last rttWindow round trips, for their least: the
// network's delay without its jitter.
type recentRTTs struct {
	r    [rttWindow]time.Duration
	n, i int
}

func (w *recentRTTs) add(rtt time.Duration) {
	w.r[w.i] = rtt
	w.i = (w.i + 1) % rttWindow
	w.n = min(w.n+1, rttWindow)
}

// least returns the least recent round trip, or 0.
func (w *recentRTTs) least() time.Duration {
	if w.n == 0 {
		return 0
	}
	m := w.r[0]
	for _, r := range w.r[1:w.n] {
		m = min(m, r)
	}
	return m
}
