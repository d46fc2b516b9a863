package netem

import "time"

// DropReason says why a datagram was not forwarded.
type DropReason uint8

// The reasons. Decide checks for a blackout first, then loss, then the queue.
const (
	NotDropped   DropReason = iota // forwarded
	DropLoss                       // random or burst loss
	DropBlackout                   // inside a scheduled blackout
	DropQueue                      // the rate cap's queue was full
)

// String is the reason for a log: "", "loss", "blackout", "queue full".
func (r DropReason) String() string {
	switch r {
	case NotDropped:
		return ""
	case DropLoss:
		return "loss"
	case DropBlackout:
		return "blackout"
	case DropQueue:
		return "queue full"
	}
	return "unknown"
}

// Outcome is what the link does with one datagram.
type Outcome struct {
	Drop      DropReason    // NotDropped, or why the datagram goes nowhere (the rest is then zero)
	Wait      time.Duration // from arrival until the (first) copy leaves; 0 = at once
	Dup       bool          // a second copy leaves DupWait after arrival
	DupWait   time.Duration // equal to Wait: the copy leaves right after the original
	Reordered bool          // held back by the reorder delay, so later datagrams may pass it
}
