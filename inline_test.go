package rtype

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHotPathInlines checks that the receive path docs/performance.md measures is
// inlined: that ParsePacket and SplitMessage (and the helpers the decoders
// use) are inlinable, and that the session package's receive functions, a
// caller in another package, do inline them. ParsePacket sits just under
// the compiler's inlining budget, and a change that pushes it over costs a
// function call on every datagram without failing any other test.
func TestHotPathInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds packages with -gcflags=-m")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	build := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(gotool, append([]string{"build"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go build %v: %v\n%s", args, err, out)
		}
		return string(out)
	}

	out := build("-gcflags=-m", ".")
	for _, fn := range []string{
		"ParsePacket", "SplitMessage", "Packet.Header", "Packet.MessageArea",
		"(*Input).UnmarshalBinary", "take",
	} {
		if !strings.Contains(out, "can inline "+fn+"\n") {
			t.Errorf("go build -gcflags=-m no longer reports %s inlinable", fn)
		}
	}

	out = build("-gcflags=github.com/rtypeproto/rtype/session=-m", "./session")
	for _, c := range []struct{ site, fn string }{
		{"session/server_packets.go", "rtype.ParsePacket"},
		{"session/server_packets.go", "rtype.SplitMessage"},
		{"session/client.go", "rtype.ParsePacket"},
		{"session/client.go", "rtype.SplitMessage"},
	} {
		if !containsLine(out, c.site, "inlining call to "+c.fn+"\n") {
			t.Errorf("%s no longer inlines %s", c.site, c.fn)
		}
	}
}

// containsLine reports whether a line of s starts with prefix and ends
// with suffix.
func containsLine(s, prefix, suffix string) bool {
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, prefix) && strings.HasSuffix(line, suffix) {
			return true
		}
	}
	return false
}
