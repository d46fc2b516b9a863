package conformance

import "time"

// A server's answers come as fast as it serves them: the ladder's probe
// notes the slowest it saw (a Pong, a ship, a missile, a second player's
// Welcome), and a case's waits for answers, and its time, grow with it,
// so that a slow server is judged, not timed out.
const (
	// paceMultiple is how many of the slowest answers a wait of a second
	// lasts at least.
	paceMultiple = 4
	// paceMax bounds the growth: a wait lasts at most paceMax times its
	// own length.
	paceMax = 3
)

// answered notes an answer of the server that took d.
func (l *ladder) answered(d time.Duration) {
	if l != nil && d > l.slowest {
		l.slowest = d
	}
}

// paced returns d grown by the ladder's pace: d itself against a server
// whose every answer came within a quarter second, up to paceMax times d
// against a slower one.
func (l *ladder) paced(d time.Duration) time.Duration {
	if l == nil {
		return d
	}
	f := float64(paceMultiple*l.slowest) / float64(time.Second)
	return time.Duration(float64(d) * min(max(f, 1), paceMax)).Round(time.Millisecond)
}

// paced returns the case's wait of d for an answer, grown to the run's
// pace (ladder.paced).
func (t *check) paced(d time.Duration) time.Duration {
	return t.suite.ladder.paced(d)
}

// aliveFor is the liveness probe's wait: a server that handles one
// datagram at a time may answer its Hello only after what the players of
// up to serverLanes cases sent, so the wait lasts paceMultiple of the
// slowest answers for each lane, from aliveWait up to paceMax times it:
// a slow server busy with the cases is not taken for gone.
func (l *ladder) aliveFor() time.Duration {
	if l == nil {
		return aliveWait
	}
	d := serverLanes * paceMultiple * l.slowest
	return min(max(d, aliveWait), paceMax*aliveWait).Round(time.Millisecond)
}
