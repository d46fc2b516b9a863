package conformance

import (
	"fmt"
	"slices"
	"time"
)

// capability is something a server must do before cases that stand on it
// can judge anything: each rung of the ladder stands on one below it
// (rungs' on). A server written step by step climbs it in this order.
type capability uint8

const (
	capWelcome   capability = iota // a Hello answered with a Welcome (§4.3)
	capPackets                     // connected packets answered (§5)
	capPong                        // a Ping answered with a Pong (§7.2)
	capShip                        // the player's ship created (§8.2)
	capSnapshots                   // Snapshots sent (§8.1)
	capSecond                      // a second player taken (§10)
	capMissiles                    // a missile fired (§7.1, §8.2)
	capBydos                       // Bydos spawned in a round (§10)
	capRounds                      // back to the lobby once every player left (§10)
	numCapabilities
)

// rungs names each capability, the section that asks for it, and the case
// that judges it: that case runs, and fails, when the capability is
// missing; every other case that needs it is not run.
var rungs = [numCapabilities]struct {
	name, section, owner, next string
	on                         capability
}{
	capWelcome:   {"handshake", "4.3", "4.2/1", "answer a valid Hello with a 10-byte Welcome, connectionId not 0 (§4.1-§4.3)", capWelcome},
	capPackets:   {"packets", "5", "5.3/5", "answer connected packets: number yours from 1, acknowledge theirs with ack and ackBits (§5.1, §5.2)", capWelcome},
	capPong:      {"Ping/Pong", "7.2", "7.2/1", "answer each Ping with a Pong carrying its timestamp (§7.2, §8.4)", capPackets},
	capShip:      {"ship", "8.2", "8.2/4", "spawn a new player's ship and send its CreateEntity to every player (§8.2, §10)", capPong},
	capSnapshots: {"Snapshots", "8.1", "10/1", "send a Snapshot of the world every 3 ticks (§8.1, §10)", capShip},
	capSecond:    {"second player", "10", "10/5", "take up to 4 players, one slot and ship colour each (§10)", capShip},
	capMissiles:  {"missiles", "7.1", "7.1/9", "fire a missile when Shoot goes from set to cleared, CreateEntity to all (§7.1, §8.2)", capShip},
	capBydos:     {"Bydos", "10", "10/6", "start a round when 2 players are in: Bydos spawn, CreateEntity to all (§8.2, §10)", capSecond},
	capRounds:    {"rounds", "10", "10/9", "go back to the lobby when every player has left (§10)", capBydos},
}

func (c capability) String() string { return rungs[c].name }

// cite names the capability with its section, as a reason quotes it.
func (c capability) cite() string { return fmt.Sprintf("%s (§%s)", rungs[c].name, rungs[c].section) }

// RungState is what the ladder's probe found of one capability.
type RungState uint8

const (
	// Held: the implementation did it.
	Held RungState = iota
	// Missing: it did not; Rung.Detail says what was sent and what came
	// back, or did not.
	Missing
	// Untried: a rung below is missing, so this one could not be tried.
	Untried
)

var rungStateNames = [...]string{"held", "missing", "untried"}

// String returns held, missing or untried.
func (s RungState) String() string {
	if int(s) < len(rungStateNames) {
		return rungStateNames[s]
	}
	return "unknown"
}

// MarshalText writes the state's name, as in the JSON report.
func (s RungState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Rung is one capability of the ladder a server run probes before its
// cases, in the order a server written step by step gains them: a
// Welcome; connected packets answered; Pong (§7.2); the player's ship
// (§8.2); Snapshots (§8.1); a second player; missiles; Bydos; rounds
// (§10). A missing rung fails the case that judges it; the cases that
// need it are not run, their detail naming the rung.
type Rung struct {
	// Name is the capability, such as "Ping/Pong".
	Name string
	// Section is the spec section that asks for it, such as "7.2".
	Section string
	// Case is the id of the case that judges it.
	Case string
	// State is what the probe found.
	State RungState
	// Detail says, for a missing rung, what the probe sent and saw.
	Detail string
	// Next says what to build to gain the rung.
	Next string
	// NotRun counts the cases of the run not run for want of it.
	NotRun int
}

// ladder is what the probe found of each capability; the zero value
// holds every one, as a run without a probe (client mode) assumes.
type ladder struct {
	probed  bool
	lacks   [numCapabilities]bool
	missing [numCapabilities]string // why, for a missing one
	// cut is the rung the probe was trying when the server stopped
	// answering: it and those after it are untried.
	cut capability
	// slowest is the slowest answer the probe saw (suite_pace.go).
	slowest time.Duration
}

func newLadder() *ladder { return &ladder{cut: numCapabilities} }

// miss notes that c is missing, for why.
func (l *ladder) miss(c capability, why string) {
	l.lacks[c], l.missing[c] = true, why
}

// lacking returns the lowest missing rung among c and those it stands
// on, the one a case needing c waits for; ok is false when they are all
// held.
func (l *ladder) lacking(c capability) (low capability, ok bool) {
	if l == nil {
		return 0, false
	}
	for x := c; ; x = rungs[x].on {
		if l.lacks[x] {
			low, ok = x, true
		}
		if x == rungs[x].on {
			return low, ok
		}
	}
}

// judges names, beside a rung's owner, the cases that judge its parts:
// the report names the one that failed.
var judges = map[capability][]string{capWelcome: {"4.3/1", "4.3/2"}, capPong: {"7.2/2"}}

// report returns the ladder for the report; notRun counts, per
// capability, the cases not run for want of it, and failed tells whether
// a case failed, to name the one that judged a missing rung.
func (l *ladder) report(notRun [numCapabilities]int, failed func(id string) bool) []Rung {
	if l == nil || !l.probed {
		return nil
	}
	out := make([]Rung, numCapabilities)
	for c := range numCapabilities {
		r := Rung{Name: rungs[c].name, Section: rungs[c].section, Case: rungs[c].owner, Next: rungs[c].next, NotRun: notRun[c]}
		low, lacks := l.lacking(c)
		switch {
		case lacks && low == c && c < l.cut:
			r.State, r.Detail = Missing, l.missing[c]
			for _, id := range judges[c] {
				if failed(id) && !failed(r.Case) {
					r.Case = id
					break
				}
			}
		case lacks, c >= l.cut:
			r.State = Untried
		}
		out[c] = r
	}
	return out
}

// need ends the case as not run when the run's ladder lacks c or a rung
// below it, unless the case is one that judges that rung: it runs, to fail
// for it.
func (t *check) need(c capability) {
	low, lacks := t.suite.ladder.lacking(c)
	if !lacks || t.id == rungs[low].owner || slices.Contains(judges[low], t.id) {
		return
	}
	t.needed(low)
}

// needed ends the case as not run for want of the missing rung low.
func (t *check) needed(low capability) {
	t.notRunFor(low, fmt.Sprintf("not run: needs %s, which failed%s", low.cite(), t.suite.ladderCause()))
}

// lack ends a case that could not get c itself: the case that judges c
// fails with detail; another is not run, naming the ladder's missing rung
// when there is one, else with detail, as the ladder's probe had c. The
// ladder's probe notes c missing.
func (t *check) lack(c capability, detail string) {
	if t.id == ladderID {
		if judge, why, _ := t.lost(); judge != "" {
			cause := fmt.Sprintf("; %s, which case %s judges", why, judge)
			t.suite.mu.Lock()
			t.suite.cause = cause
			t.suite.mu.Unlock()
			detail += cause
		}
		t.missing(c, detail)
		t.Skipf("%s", detail)
	}
	low, lacks := t.suite.ladder.lacking(c)
	if t.id == rungs[c].owner || lacks && t.id == rungs[low].owner {
		t.Failf("%s", detail)
	}
	if lacks {
		t.needed(low)
	}
	// The ladder had c: the case's wait for it ran out.
	t.waitedOut("not run: %s", detail)
}

// notRunFor ends the case as not run for want of c, counted under its
// rung.
func (t *check) notRunFor(c capability, detail string) {
	t.mu.Lock()
	t.srv.wantOf = c + 1
	t.mu.Unlock()
	t.Skipf("%s", detail)
}
