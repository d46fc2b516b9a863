package netem

import "time"

// Blackout is a schedule of outages: nothing passes in [k·Every, k·Every+For)
// for k = 1, 2, … counted from the link's start. The zero value is no outage.
type Blackout struct{ Every, For time.Duration }

// String gives b in the form [ParseBlackout] reads: "5s/2s", or "0" for none.
func (b Blackout) String() string {
	if b.zero() {
		return "0"
	}
	return b.Every.String() + "/" + b.For.String()
}

func (b Blackout) zero() bool { return b == Blackout{} }

// validate accepts no schedule, or one with 0 < For < Every.
func (b Blackout) validate() error {
	if b.zero() || (b.For > 0 && b.For < b.Every) {
		return nil
	}
	return ErrBlackout
}

// dark reports whether offset t from the start falls in an outage. The
// first window opens at Every, so the start itself is never dark.
func (b Blackout) dark(t time.Duration) bool {
	if b.Every <= 0 || b.For <= 0 || t < b.Every {
		return false
	}
	return t%b.Every < b.For
}
