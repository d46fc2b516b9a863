package main

import (
	"strings"
	"time"
)

// verdict is what the proxy did with one datagram, as the log shows it.
type verdict struct {
	dropped   bool
	reason    dropReason
	wait      time.Duration // until the first copy left
	reordered bool
	dup       bool
	held      bool // given to the scheduler, even with no wait: not delivered yet
}

// text is the verdict in the text log: "forwarded", "delayed by 103ms",
// "dropped (loss)", with ", reordered" and ", duplicated" added.
func (v verdict) text() string {
	if v.dropped {
		return "dropped (" + v.reason.String() + ")"
	}
	var b strings.Builder
	if v.wait > 0 {
		b.WriteString("delayed by ")
		b.WriteString(roundDelay(v.wait).String())
	} else {
		b.WriteString("forwarded")
	}
	if v.reordered {
		b.WriteString(", reordered")
	}
	if v.dup {
		b.WriteString(", duplicated")
	}
	return b.String()
}

// kind is the verdict's one word in JSON: forwarded, delayed or dropped.
func (v verdict) kind() string {
	switch {
	case v.dropped:
		return "dropped"
	case v.wait > 0:
		return "delayed"
	}
	return "forwarded"
}

// roundDelay rounds d for reading: to the millisecond from 10 ms, else to
// the microsecond.
func roundDelay(d time.Duration) time.Duration {
	if d >= 10*time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
