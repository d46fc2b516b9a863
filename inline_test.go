package rtype

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHotPathInlines checks that the receive path of BenchmarkInputPacket
// and BenchmarkSnapshotPacket is inlined into its caller, as their doc
// comments promise: CheckPacket sits just under the compiler's inlining
// budget, and a change that pushes it over costs a function call on every
// datagram without failing any other test.
func TestHotPathInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(gotool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range []string{
		"CheckPacket", "SplitMessage", "PacketBytes.Header", "PacketBytes.MessageArea",
		"(*Input).UnmarshalBinary", "take",
	} {
		if !strings.Contains(string(out), "can inline "+fn+"\n") {
			t.Errorf("%s is no longer inlinable; go build -gcflags=-m says:\n%s", fn, grepLines(string(out), fn))
		}
	}
}

// grepLines returns the lines of s that mention name.
func grepLines(s, name string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if strings.Contains(line, " "+name) {
			b.WriteString(line)
		}
	}
	return b.String()
}
