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
	lua, err := exec.LookPath("lua5.4")
	if err != nil {
		t.Skip("lua5.4 is not installed")
	}
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
	frames := strings.Split(string(out), "frame ")
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
