package rtypefuzz

import "fmt"

// whatf formats the words of a Mutation's What, or returns "" from a
// Mutator told that no one reads them (a run without Options.Trace):
// formatting them cost more than drawing many a datagram.
func (m *Mutator) whatf(format string, args ...any) string {
	if m.quiet {
		return ""
	}
	return fmt.Sprintf(format, args...)
}
