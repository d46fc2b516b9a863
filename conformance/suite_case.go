package conformance

import (
	"strings"
	"time"
)

// Case is one rule of the spec observable from the other side of the wire.
type Case struct {
	// ID is the section and the rule's number in it, such as "5.2/3".
	ID string
	// Level is how binding the rule is.
	Level Level
	// Title is the requirement, one line in the spec's words.
	Title string

	run func(*check)
	// needs is how long the case must be able to wait by nature, beyond
	// the usual time.
	needs time.Duration
	// quits, in client mode, says that the case makes its client quit,
	// which only a client started by a command can: without one the
	// case is not run.
	quits bool
	// players, in server mode, is how many players the case connects at
	// once, at most; 0 means 1, 4 (every slot) that it needs the server
	// empty. Cases run side by side within the server's 4 slots (§10).
	players int
	// alone says the case runs with no other beside it but those marked
	// beside: it judges the world every player shares, or ship motion,
	// which a round starting beside it changes.
	alone bool
	// beside says the case may run beside any other, an alone one too: a
	// long case that judges its own players only, and keeps a round on.
	// In client mode it waits for the client's own clocks, on a scripted
	// server of its own beside the others.
	beside bool
	// slow says the case waits for the game's own clocks, half a minute
	// of a run's time: only Options.Slow selects it.
	slow bool
	// late says the case runs after every other: it judges what they
	// saw too.
	late bool
}

// Section returns the spec section of the case, the part of ID before '/'.
func (c Case) Section() string {
	s, _, _ := strings.Cut(c.ID, "/")
	return s
}

// Slow reports whether the case waits for the game's own clocks, such as
// §10's 30 seconds: only [Options].Slow (rtypecheck -slow) selects it.
func (c Case) Slow() bool { return c.slow }
