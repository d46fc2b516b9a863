package exampletest

import (
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// CheckWidth fails the test for every line of out wider than width
// columns, counted as the reports count them (termwidth.Columns: µ, § and
// × take one column each); name says which output out is.
func CheckWidth(t testing.TB, name, out string, width int) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if n := termwidth.Columns(line); n > width {
			t.Errorf("%s: a line of %d columns, over %d:\n%s", name, n, width, line)
		}
	}
}
