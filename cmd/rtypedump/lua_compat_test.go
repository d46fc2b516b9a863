package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// luaBandShim is the one line of the dissector allowed to name bit32: Lua
// 5.4 (Wireshark 4.4 and later) has no bit32, while every Wireshark ships
// the BitOp library as the global bit.
const luaBandShim = "local band = (bit32 and bit32.band) or bit.band"

// The dissector must run on Lua 5.2 (Wireshark 4.0) and Lua 5.4 alike: no
// use of bit32 outside the compatibility shim, and no native bit operator,
// which Lua 5.2 cannot parse.
func TestDissectorLuaVersionNeutral(t *testing.T) {
	src, err := os.ReadFile(dissector)
	if err != nil {
		t.Fatal(err)
	}
	shim := 0
	for i, line := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(line, "--")
		code = strings.TrimSpace(code)
		if code == luaBandShim {
			shim++
			continue
		}
		if strings.Contains(code, "bit32") {
			t.Errorf("line %d uses bit32 outside the shim: %s", i+1, code)
		}
		if strings.ContainsAny(stripLuaStrings(code), "&|~") && !strings.Contains(code, "~=") {
			t.Errorf("line %d may use a native bit operator: %s", i+1, code)
		}
	}
	if shim != 1 {
		t.Errorf("the shim %q appears %d times, want once", luaBandShim, shim)
	}
}

// stripLuaStrings removes quoted strings from a line of Lua.
func stripLuaStrings(code string) string {
	var b strings.Builder
	var quote rune
	for _, r := range code {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
		case r == '"' || r == '\'':
			quote = r
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// The dissector runs under Lua 5.4, where bit32 does not exist, when a
// Lua 5.4 interpreter is installed (Debian package lua5.4): an Input with
// and without reserved action bits (§7.1) after a Welcome (§4.3), and a
// packet with another connection id than the Welcome's (§5.4); each of its
// own sequence (§5.2).
func TestDissectorRunsOnLua54(t *testing.T) {
	lua := lookLua54(t)
	const (
		welcome  = "s:52545950010200000007"
		header   = "00000007000000010000000000000000"
		header2  = "00000007000000020000000000000000"
		input    = "000200090000000100000002"
		goodAct  = "11"
		badAct   = "31"
		wantBad  = "rtype.msg.valid=false"
		wantGood = "rtype.msg.valid=true"
	)
	out, err := exec.Command(lua, "testdata/wireshark_stub.lua", dissector,
		welcome, "c:"+header+input+goodAct, "c:"+header2+input+badAct, "c:00000008"+header[8:]+input+goodAct).CombinedOutput()
	if err != nil {
		t.Fatalf("lua5.4: %v\n%s", err, out)
	}
	first, _, _ := strings.Cut(string(out), "revisit ")
	frames := strings.Split(first, "frame ")
	if len(frames) != 5 {
		t.Fatalf("want 4 frames, got output:\n%s", out)
	}
	for _, c := range []struct {
		frame string
		want  []string
	}{
		{frames[1], []string{"rtype.handshake.connection_id=7", "rtype.valid=true"}},
		{frames[2], []string{"rtype.input.actions=17", wantGood, "rtype.valid=true"}},
		{frames[3], []string{"rtype.input.actions=49", wantBad, "rtype.valid=true"}},
		{frames[4], []string{"rtype.header.connection_id=8", "rtype.valid=false",
			"rtype.error=connection id 8 differs from the Welcome's 7 (§5.4)"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.frame, w+"\n") {
				t.Errorf("frame %s: no %s", c.frame, w)
			}
		}
	}
}

// lookLua54 returns the path of lua5.4, skipping the test without it. It
// reads the dissector and the stub, so that go test's cache depends on them.
func lookLua54(t *testing.T) string {
	t.Helper()
	lua, err := exec.LookPath("lua5.4")
	if err != nil {
		t.Skip("lua5.4 is not installed")
	}
	for _, name := range []string{dissector, "testdata/wireshark_stub.lua"} {
		if _, err := os.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	return lua
}

// The dissector keeps each frame's verdict when Wireshark dissects frames
// again, out of order (§3): a client that leaves with a Disconnect (§7.3)
// and comes back from the same address to another id, dissected in order,
// then again from the last frame back, gives each frame the same fields.
func TestDissectorRevisitsOutOfOrder(t *testing.T) {
	lua := lookLua54(t)
	const (
		hello = "c:525459500101"
		ping  = "0003000400000001"
	)
	out, err := exec.Command(lua, "testdata/wireshark_stub.lua", dissector,
		hello, "s:52545950010200000005", "c:00000005000000010000000000000000"+ping,
		"c:000000050000000200000000000000000004000101", hello, "s:52545950010200000007",
		"c:00000007000000010000000000000000"+ping, "c:00000005000000030000000000000000"+ping).CombinedOutput()
	if err != nil {
		t.Fatalf("lua5.4: %v\n%s", err, out)
	}
	first, again, ok := strings.Cut(string(out), "revisit ")
	if !ok {
		t.Fatalf("no second pass in:\n%s", out)
	}
	pass := func(text, marker string) map[string]string {
		m := map[string]string{}
		for _, f := range strings.Split(text, marker)[1:] {
			n, fields, _ := strings.Cut(f, "\n")
			m[n] = fields
		}
		return m
	}
	inOrder, reversed := pass(first, "frame "), pass("revisit "+again, "revisit ")
	if len(inOrder) != 8 {
		t.Fatalf("%d frames in the first pass, want 8:\n%s", len(inOrder), out)
	}
	for _, n := range []string{"5", "6", "7"} {
		if !strings.Contains(inOrder[n], "rtype.valid=true\n") {
			t.Errorf("frame %s, after the Disconnect: not valid in order:\n%s", n, inOrder[n])
		}
	}
	if !strings.Contains(inOrder["8"], "rtype.error=connection id 5 differs from the Welcome's 7 (§5.4)") {
		t.Errorf("frame 8, the old id: %s", inOrder["8"])
	}
	for n, fields := range inOrder {
		if reversed[n] != fields {
			t.Errorf("frame %s dissected again, out of order:\n%s\nfirst:\n%s", n, reversed[n], fields)
		}
	}
}
