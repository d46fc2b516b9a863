package conformance

// Level is how binding a case's rule is, which decides whether its failure
// fails the run.
type Level uint8

const (
	// Must covers MUST and MUST NOT, and the spec's definite statements
	// such as "answers with a Pong". A failure always fails the run.
	Must Level = iota
	// Should covers SHOULD and SHOULD NOT; a failure fails the run only in
	// strict mode.
	Should
	// Game covers the rules of the R-Type game itself (§7.1 movement and
	// missiles, §10); a failure fails the run only in strict mode.
	Game
	// Beyond covers the fixes of §13's known limitations, which version 1
	// does not require: reported, never a failure.
	Beyond
)

var levelNames = [...]string{"MUST", "SHOULD", "GAME", "BEYOND"}

// String returns MUST, SHOULD, GAME or BEYOND.
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return "UNKNOWN"
}

// MarshalText writes the level's name, as in the JSON report.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Fails reports whether a failed case of this level fails the run, with
// or without strict mode.
func (l Level) Fails(strict bool) bool {
	switch l {
	case Must:
		return true
	case Should, Game:
		return strict
	}
	return false
}
