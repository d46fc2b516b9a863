package conformance

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/rtypeproto/rtype"
)

// Client mode judges §7.1's one Input per frame by clientTick, the
// client's frame counter: from one Input to the next it goes up by 1
// unless frames went without an Input. A gap across a packet that never
// arrived is the network's, not the client's, and is not judged.

// Bounds of §7.1's one Input per frame: about 60 a second (§10), judged
// kindly, and how long a client is watched at most. A client holds
// something on many frames (the example bot moves for its first 2 s):
// the watch goes on until an Input holding nothing has shown.
const (
	minInputRate = 20
	maxInputRate = 120
	inputWatch   = 3 * time.Second
	// idleFollow is how long the watch goes on after the first Input
	// holding nothing, so that a gap after it shows too.
	idleFollow = 250 * time.Millisecond
	// maxInputQuiet is the longest silence after an Input judged kindly: a
	// client that stops sending Inputs does not pass on its first second.
	maxInputQuiet = 300 * time.Millisecond
)

// inputLog records the client's Inputs as they come.
type inputLog struct {
	n, idle     int
	first, last time.Time
	firstIdle   time.Time
	tick        uint32 // clientTick of the last Input
	// seq is the last packet seen and inPacket its Inputs; lost is set
	// when a packet between the last Input's and this one never came.
	seq      uint32
	inPacket int
	lost     bool
	twice    *msg
	// gap describes the first clientTick that did not follow the last
	// one; gaps and missed count them and the frames they skipped.
	gap    string
	gaps   int
	missed uint64
}

// see takes one message of the client's.
func (l *inputLog) see(m msg) {
	if m.hdr.Sequence != l.seq {
		l.lost = l.lost || l.seq != 0 && m.hdr.Sequence > l.seq+1
		l.seq, l.inPacket = m.hdr.Sequence, 0
	}
	if m.raw.Type != rtype.TypeInput || len(m.raw.Payload) != rtype.InputSize {
		return
	}
	if l.inPacket++; l.inPacket == 2 && l.twice == nil {
		l.twice = &m
	}
	tick := binary.BigEndian.Uint32(m.raw.Payload[4:])
	if l.n > 0 && !l.lost && tick != l.tick+1 {
		l.skipped(m, tick)
	}
	if l.n == 0 {
		l.first = m.at
	}
	if m.raw.Payload[8] == 0 {
		if l.idle == 0 {
			l.firstIdle = m.at
		}
		l.idle++
	}
	l.n, l.last, l.tick, l.lost = l.n+1, m.at, tick, false
}

// skipped notes an Input whose clientTick does not follow the last one.
func (l *inputLog) skipped(m msg, tick uint32) {
	l.gaps++
	d := int32(tick - l.tick)
	if d > 1 {
		l.missed += uint64(d - 1)
	}
	if l.gap != "" {
		return
	}
	what := fmt.Sprintf("frames %d to %d went without an Input", l.tick+1, tick-1)
	switch {
	case d == 2:
		what = fmt.Sprintf("frame %d went without an Input", l.tick+1)
	case d <= 0:
		what = "it did not go up: not one Input per frame"
	}
	l.gap = fmt.Sprintf("the client's Input in packet %d carries clientTick %d after %d: %s", m.hdr.Sequence, tick, l.tick, what)
}

// enough reports whether the watch has seen what it needs: a second of
// Inputs for the rate, and a gap or an Input holding nothing.
func (l *inputLog) enough() bool {
	return l.n > 0 && time.Since(l.first) >= time.Second &&
		(l.gap != "" || l.idle > 0 && time.Since(l.firstIdle) >= idleFollow)
}

// judge fails the case on the first rule of one Input per frame broken.
func (l *inputLog) judge(t *check) {
	if l.twice != nil {
		t.Failf("the client's packet %d carries two Inputs: one per frame, a frame per packet", l.twice.hdr.Sequence)
	}
	if l.n < 2 {
		t.Failf("%d Input(s) within %v of the first packet: want one per frame (about 60 a second), also with nothing held", l.n, inputWatch)
	}
	span := l.last.Sub(l.first)
	if quiet := time.Since(l.last); quiet > maxInputQuiet {
		t.Failf("%d Inputs, then none for the last %v of the watch: want one per frame, also with nothing held", l.n, quiet.Round(time.Millisecond))
	}
	if rate := float64(l.n-1) / span.Seconds(); rate < minInputRate || rate > maxInputRate {
		t.Failf("%d Inputs in %v: %.0f a second, want about 60 (%d to %d), one per frame", l.n, span.Round(time.Millisecond), rate, minInputRate, maxInputRate)
	}
	if l.gap != "" {
		held := fmt.Sprintf("%d of them held nothing (0x00)", l.idle)
		if l.idle == 0 {
			held = "every one held something: none for the frames where nothing is held?"
		}
		t.Failf("%s; %d such gaps, %d frames without an Input, in %d Inputs over %v; %s",
			l.gap, l.gaps, l.missed, l.n, span.Round(time.Millisecond), held)
	}
}
