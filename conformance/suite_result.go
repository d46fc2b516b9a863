package conformance

import (
	"net/netip"
	"time"
)

// Outcome is how a case ended.
type Outcome uint8

const (
	// Pass: the implementation did what the rule says.
	Pass Outcome = iota
	// Fail: it did not; Result.Detail says what was sent and what came
	// back, or did not, by when.
	Fail
	// NotRun: the case could not judge its rule, as the implementation
	// lacks what the case stands on (no Pong, no ship: see [Rung]), or
	// stopped answering, or the case was left to a client started by
	// hand; Result.Detail says why. Deselected cases (Options.Run and
	// Skip) are not reported at all.
	NotRun
)

var outcomeNames = [...]string{"pass", "fail", "not run"}

// String returns pass, fail or not run.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// MarshalText writes the outcome's name, as in the JSON report.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Result is what running one case gave.
type Result struct {
	// Case is the case that ran.
	Case Case
	// Outcome is how it ended.
	Outcome Outcome
	// Detail says, for a failed or skipped case, what happened.
	Detail string
	// Duration is how long the case ran.
	Duration time.Duration
	// Vacuous marks a case not run because its rule never applied: the
	// case drove the implementation to where the rule binds, and it
	// stopped short, as the spec lets it (9.1/1: no position past the
	// encodable range, the missiles destroyed inside it). Detail says
	// what the case saw. It does not count for Report.Status.
	Vacuous bool
	// Exchange lists the datagrams the case sent and received, in order;
	// it is kept only for failed cases, and only with Options.Record.
	Exchange []Datagram
}

// Datagram is one datagram a case sent or received.
type Datagram struct {
	// At is when, counted from the start of the case.
	At time.Duration
	// Src and Dst are the datagram's source and destination addresses.
	Src, Dst netip.AddrPort
	// Handshake is true when the receiver's side took it for a handshake
	// datagram (§3), false for a connected packet.
	Handshake bool
	// Bytes is the datagram.
	Bytes []byte
}
