package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
	"github.com/rtypeproto/rtype/internal/waiters"
)

// runCLI runs the command with args and returns its status and outputs.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code = run(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// closedPort returns a loopback UDP address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := c.LocalAddr().String()
	c.Close()
	return addr
}

// TestUsageErrors: every command line that cannot be run exits 2 with a
// reason and the usage on stderr, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	junitDir := filepath.Join(t.TempDir(), "no", "such", "dir", "r.xml")
	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no mode", nil, "no mode"},
		{"unknown mode", []string{"proxy", "127.0.0.1:4242"}, `unknown mode "proxy"`},
		{"flag before mode", []string{"-v", "server", "127.0.0.1:4242"}, `unknown mode "-v"`},
		{"no target", []string{"server"}, "needs the server's HOST:PORT"},
		{"two targets", []string{"server", "127.0.0.1:4242", "127.0.0.1:4243"}, "unexpected arguments"},
		{"unknown flag", []string{"server", "-nope", "127.0.0.1:4242"}, "flag provided but not defined: -nope"},
		{"listen in server mode", []string{"server", "-listen", ":0", "127.0.0.1:4242"}, "not defined: -listen"},
		{"bad -run", []string{"server", "-run", "(", "127.0.0.1:4242"}, "-run: error parsing regexp"},
		{"bad -skip", []string{"client", "-skip", "[", "--", "true"}, "-skip: error parsing regexp"},
		{"bad -timeout", []string{"server", "-timeout", "soon", "127.0.0.1:4242"}, `invalid value "soon"`},
		{"zero -timeout", []string{"server", "-timeout", "0s", "127.0.0.1:4242"}, "want a positive duration"},
		{"no case selected", []string{"server", "-run", "^nothing$", closedPort(t)}, "select no server case"},
		{"list selects nothing", []string{"client", "-list", "-skip", "."}, "select no client case"},
		{"target without port", []string{"server", "127.0.0.1"}, `target "127.0.0.1"`},
		{"bad listen", []string{"client", "-listen", "not an address", "--", "true"}, "-listen"},
		{"junit in no directory", []string{"server", "-junit", junitDir, "127.0.0.1:4242"}, "-junit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr:\n%s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty:\n%s", stdout)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v: a usage error needs no network", d)
			}
		})
	}
}

// fits fails the test for every line of out wider than width columns,
// counted in runes (§ takes one column).
func fits(t *testing.T, name, out string, width int) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > width {
			t.Errorf("%s: a line of %d columns, over %d:\n%s", name, n, width, line)
		}
	}
}

// TestHelp: -h prints the usage, with the fixed flags, on stdout and
// exits 0, before or after a mode.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"server", "-h"}, {"client", "-help"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q; want 0 and nothing", args, code, stderr)
		}
		for _, f := range []string{"usage: rtypecheck server", "rtypecheck client [flags] [-- COMMAND [ARGS...]]",
			"-json", "-junit FILE", "-run REGEXP", "-skip REGEXP", "-list", "-strict", "-slow", "-v", "-timeout", "-listen ADDR"} {
			if !strings.Contains(stdout, f) {
				t.Errorf("%q: usage lacks %q:\n%s", args, f, stdout)
			}
		}
	}
}

// TestList: -list prints the cases of a mode, id, level and title, without
// a target and without running anything, and -run narrows it.
func TestList(t *testing.T) {
	for _, mode := range []string{"server", "client"} {
		code, stdout, stderr := runCLI(t, mode, "-list")
		if code != 0 {
			t.Fatalf("%s -list: exit %d: %s", mode, code, stderr)
		}
		fits(t, mode+" -list", stdout, 80)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if len(lines) < 1 || lines[0] == "" {
			t.Fatalf("%s -list printed no case", mode)
		}
		// A title goes on under itself, past the id and level.
		var entries []string
		for _, l := range lines {
			if strings.HasPrefix(l, strings.Repeat(" ", 16)) && len(entries) > 0 {
				entries[len(entries)-1] += "\n" + l
				continue
			}
			f := strings.Fields(l)
			if len(f) < 3 || !strings.Contains(f[0], "/") || !strings.Contains("MUST SHOULD GAME BEYOND", f[1]) {
				t.Errorf("%s -list: line %q is not id, level, title", mode, l)
			}
			entries = append(entries, l)
		}
		n := 0
		for _, c := range conformance.Cases(conformance.Mode(mode)) {
			if !c.Slow() {
				n++
			}
		}
		if len(entries) != n {
			t.Errorf("%s -list: %d cases listed, want %d, the slow ones left out", mode, len(entries), n)
		}
		first := strings.Fields(entries[0])[0]
		code, one, _ := runCLI(t, mode, "-list", "-run", "^"+strings.ReplaceAll(first, ".", `\.`)+"$")
		if code != 0 || one != entries[0]+"\n" {
			t.Errorf("%s -list -run %s: exit %d, printed %q, want %q", mode, first, code, one, entries[0]+"\n")
		}
	}
}

// TestSlow: a slow case, 10/10, is left out unless -slow selects it,
// even when -run names it.
func TestSlow(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"server", "-list"}, false},
		{[]string{"server", "-list", "-run", "^10/"}, false},
		{[]string{"server", "-list", "-slow"}, true},
		{[]string{"server", "-list", "-slow", "-run", "^10/10$"}, true},
	} {
		_, stdout, _ := runCLI(t, tc.args...)
		if got := strings.Contains(stdout, "10/10 "); got != tc.want {
			t.Errorf("%q lists 10/10: %v, want %v:\n%s", tc.args, got, tc.want, stdout)
		}
	}
}

// TestUnreachable: a closed loopback port is not reached at all: exit 2,
// within the first probe's few seconds; stderr names the target and says
// that nothing listens there, as the host's ICMP port unreachable told,
// and the JSON and JUnit reports are written, each with one error entry
// saying so.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	start := time.Now()
	addr := closedPort(t)
	junit := filepath.Join(t.TempDir(), "r.xml")
	code, stdout, stderr := runCLI(t, "server", "-json", "-junit", junit, addr)
	if code != 2 {
		t.Errorf("exit %d, want 2; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	fits(t, "stderr", stderr, 80)
	hint := "nothing listens at UDP " + addr + " (the host answered ICMP port unreachable)"
	said := strings.Join(strings.Fields(stderr), " ") // as one line, unwrapped
	if !strings.Contains(said, "not reachable") || !strings.Contains(said, "to "+addr) || !strings.Contains(said, hint) {
		t.Errorf("stderr does not say that %s was not reached, nor ask %q:\n%s", addr, hint, stderr)
	}
	var rep struct {
		Mode, Target, Error string
		Cases               []json.RawMessage
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("-json: %v:\n%s", err, stdout)
	}
	if rep.Mode != "server" || rep.Target != addr || !strings.Contains(rep.Error, hint) || len(rep.Cases) != 0 {
		t.Errorf("-json: %+v, want the target and the error, no case", rep)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatalf("-junit: %v", err)
	}
	var doc struct {
		Suite struct {
			Tests  int `xml:"tests,attr"`
			Errors int `xml:"errors,attr"`
			Cases  []struct {
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Suite; s.Tests != 1 || s.Errors != 1 || len(s.Cases) != 1 || s.Cases[0].Error == nil || !strings.Contains(s.Cases[0].Error.Message, hint) {
		t.Errorf("-junit, want one testcase with an error that asks %q:\n%s", hint, b)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to give up", d)
	}
}

// TestSilentServer: a server that reads every Hello and answers none is
// not reached: exit 2, after it got Hellos.
func TestSilentServer(t *testing.T) {
	t.Parallel()
	addr, hellos := serve(t, func(*net.UDPConn, netip.AddrPort, []byte) {})
	code, _, stderr := runCLI(t, "server", "-junit", filepath.Join(t.TempDir(), "r.xml"), addr)
	if code != 2 || !strings.Contains(stderr, "not reachable: no answer within") {
		t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	if hellos.Load() == 0 {
		t.Error("the server got no Hello")
	}
}

// TestNoValidWelcome: a server that answers every Hello, but never with a
// valid Welcome, is reached: the run goes on, the case of the rule it
// breaks fails with what came, and rtypecheck exits 1. The cases that need
// a connection are not run, at once, so the whole run takes seconds.
func TestNoValidWelcome(t *testing.T) {
	t.Parallel()
	welcome := func(change func([]byte) []byte) func(*net.UDPConn, netip.AddrPort, []byte) {
		return func(c *net.UDPConn, from netip.AddrPort, b []byte) {
			if typ, _, err := rtype.ParseHandshake(b); err == nil && typ == rtype.HandshakeHello {
				c.WriteToUDPAddrPort(change(rtype.AppendWelcome(nil, 7)), from)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		answer func([]byte) []byte
		fails  string
		says   string
	}{
		{"11 bytes", func(b []byte) []byte { return append(b, 0) }, "4.3/1", "is 11 bytes"},
		{"id 0", func(b []byte) []byte { clear(b[6:]); return b }, "4.3/2", "carries connectionId 0"},
		{"no handshake", func([]byte) []byte { return []byte("no welcome here") }, "4.2/1", "15-byte datagram"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			addr, _ := serve(t, welcome(tc.answer))
			start := time.Now()
			code, stdout, stderr := runCLI(t, "server", addr)
			if code != 1 || !strings.Contains(stderr, "FAIL: "+tc.fails+"\n") {
				t.Errorf("exit %d, want 1 with only %s failing; stderr:\n%s\nstdout:\n%s", code, tc.fails, stderr, stdout)
			}
			fits(t, "stdout", stdout, 80)
			fits(t, "stderr", stderr, 80)
			// The detail is under the case's line, before the next case's.
			_, failure, _ := strings.Cut(stdout, "FAIL     "+tc.fails+" ")
			if end := regexp.MustCompile(`\n(  (PASS|FAIL|NOT RUN) |\n)`).FindStringIndex(failure); end != nil {
				failure = failure[:end[0]]
			}
			if !strings.Contains(strings.Join(strings.Fields(failure), " "), tc.says) {
				t.Errorf("the failure of %s does not say %q:\n%s", tc.fails, tc.says, stdout)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("the run took %v: the cases that need a connection did not skip at once", d)
			}
		})
	}
}

// TestClientNeverStarts: a client command that exits at once sends no
// Hello: exit 2.
func TestClientNeverStarts(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/true"); err != nil {
		t.Skip("no /bin/true")
	}
	code, _, stderr := runCLI(t, "client", "--", "/bin/true", "{addr}")
	if code != 2 || !strings.Contains(stderr, "not reachable") {
		t.Errorf("exit %d, want 2 and not reachable; stderr:\n%s", code, stderr)
	}
}

// serve runs a UDP server on loopback until the test ends, calling handle
// for each datagram, and counts the Hellos it got.
func serve(t *testing.T, handle func(c *net.UDPConn, from netip.AddrPort, b []byte)) (string, *atomic.Int64) {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var hellos atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 2048)
		for {
			n, from, err := c.ReadFromUDPAddrPort(buf)
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if err != nil {
				continue
			}
			if typ, _, err := rtype.ParseHandshake(buf[:n]); err == nil && typ == rtype.HandshakeHello {
				hellos.Add(1)
			}
			handle(c, from, buf[:n])
		}
	}()
	t.Cleanup(func() { c.Close(); <-done })
	return c.LocalAddr().String(), &hellos
}

// pingServer is a tiny server: Welcome to each Hello, a Pong to each Ping
// of a packet it takes. With lenient, it takes a packet whose message
// area ends in a truncated message header, which §5.3 drops: the broken
// rule of case 5.3/1.
func pingServer(lenient bool) func(c *net.UDPConn, from netip.AddrPort, b []byte) {
	type conn struct {
		id, seq uint32
		win     rtype.SeqWindow
	}
	conns := map[netip.AddrPort]*conn{}
	return func(c *net.UDPConn, from netip.AddrPort, b []byte) {
		if typ, _, err := rtype.ParseHandshake(b); err == nil {
			if typ == rtype.HandshakeHello && conns[from] == nil && len(conns) < 1000 {
				conns[from] = &conn{id: uint32(len(conns) + 1)}
			}
			if cn := conns[from]; cn != nil && typ == rtype.HandshakeHello {
				c.WriteToUDPAddrPort(rtype.AppendWelcome(nil, cn.id), from)
			}
			return
		}
		cn := conns[from]
		if cn == nil || len(b) < rtype.PacketHeaderSize {
			return
		}
		area := b[rtype.PacketHeaderSize:]
		if !lenient {
			pk, err := rtype.ParsePacket(b)
			if err != nil {
				return
			}
			area = pk.MessageArea()
		}
		// The header alone, read as a lenient server reads it (§5.1).
		id, seq := binary.BigEndian.Uint32(b[0:4]), binary.BigEndian.Uint32(b[4:8])
		if id != cn.id || !cn.win.Receive(seq).Accept() {
			return
		}
		for {
			m, rest, ok := rtype.SplitMessage(area)
			if !ok {
				break
			}
			area = rest
			var ping rtype.Ping
			if m.Type != rtype.TypePing || ping.UnmarshalBinary(m.Payload) != nil {
				continue
			}
			cn.seq++
			ack, bits := cn.win.Ack()
			out, _ := rtype.PacketHeader{ConnectionID: cn.id, Sequence: cn.seq, Ack: ack, AckBits: bits}.AppendBinary(nil)
			out, _ = rtype.AppendMessage(out, rtype.Pong(ping))
			c.WriteToUDPAddrPort(out, from)
		}
	}
}

// TestRunExitStatus runs case 5.3/1 against the tiny server, which keeps
// the rule, and against its lenient copy, which breaks it: the report,
// JSON and JUnit say so, and the exit status is 0 then 1.
func TestRunExitStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []exitCase{{false, 0, "pass"}, {true, 1, "fail"}} {
		t.Run(fmt.Sprintf("lenient=%v", tc.lenient), func(t *testing.T) {
			t.Parallel()
			runExitStatus(t, tc)
		})
	}
}

// exitCase is a server of TestRunExitStatus: lenient or not, the exit
// status and the case's result it must get.
type exitCase struct {
	lenient bool
	code    int
	result  string
}

// runExitStatus runs one server of TestRunExitStatus.
func runExitStatus(t *testing.T, tc exitCase) {
	addr, _ := serve(t, pingServer(tc.lenient))
	dir := t.TempDir()
	junit := filepath.Join(dir, "r.xml")
	code, stdout, stderr := runCLI(t, "server", "-run", `^5\.3/1$`, "-junit", junit, addr)
	if code != tc.code {
		t.Errorf("lenient=%v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.lenient, code, tc.code, stdout, stderr)
	}
	summary := "1 passed, 0 failed, 0 not run\n"
	if tc.lenient {
		summary = "0 passed, 1 failed, 0 not run\n"
	}
	// The ladder first: the tiny server answers Pings, and makes no
	// ship (§8.2).
	ladder := "handshake ✓ · packets ✓ · Ping/Pong ✓ · ship ✗\n"
	if !strings.HasPrefix(stdout, ladder) || !strings.Contains(stdout, "\n§5.3\n  "+strings.ToUpper(tc.result)+"     5.3/1 ") || !strings.HasSuffix(stdout, "\n"+summary) {
		t.Errorf("lenient=%v: report:\n%s", tc.lenient, stdout)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suite struct {
			Failures int `xml:"failures,attr"`
			Cases    []struct {
				Classname string    `xml:"classname,attr"`
				Failure   *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suite.Cases) != 1 || doc.Suite.Cases[0].Classname != "5.3" || (doc.Suite.Cases[0].Failure != nil) != tc.lenient {
		t.Errorf("lenient=%v: JUnit:\n%s", tc.lenient, b)
	}

	code, stdout, _ = runCLI(t, "server", "-json", "-v", "-run", `^5\.3/1$`, addr)
	var rep struct {
		Mode, Target string
		Cases        []struct{ ID, Result string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != tc.code {
		t.Fatalf("lenient=%v: -json exit %d, %v:\n%s", tc.lenient, code, err, stdout)
	}
	want := []struct{ ID, Result string }{{"5.3/1", tc.result}}
	if diff := cmp.Diff(want, rep.Cases); diff != "" || rep.Mode != "server" || rep.Target != addr {
		t.Errorf("lenient=%v: JSON mode %q target %q, cases (-want +got):\n%s", tc.lenient, rep.Mode, rep.Target, diff)
	}
}

// TestVerboseShowsDatagrams: with -v a failed case is followed by the
// datagrams it exchanged, in rtypedump's text format. Flags may follow
// the target.
func TestVerboseShowsDatagrams(t *testing.T) {
	t.Parallel()
	addr, _ := serve(t, pingServer(true))
	code, stdout, _ := runCLI(t, "server", "-run", `^5\.3/1$`, addr, "-v")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{" handshake Hello\n", " handshake Welcome", "connectionId=", "  Ping size=4 timestamp=", "  Pong size=4 timestamp="} {
		if !strings.Contains(stdout, want) {
			t.Errorf("verbose report lacks %q:\n%s", want, stdout)
		}
	}
}

// TestInterrupt: a run interrupted before it starts reports so and exits
// 2, without hanging.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	addr, _ := serve(t, pingServer(false))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"server", addr}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("exit %d, want 2; stderr:\n%s", code, errOut.String())
	}
}

// TestCommandLine: the client's command is reported as a shell would
// read it back.
func TestCommandLine(t *testing.T) {
	got := commandLine([]string{"go", "run", "./examples/bot", "-server", "{addr}", "-name", "a b", ""})
	want := `go run ./examples/bot -server {addr} -name "a b" ""`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestVerdict: the exit status of a finished or interrupted run for each
// level of failure, with and without -strict.
func TestVerdict(t *testing.T) {
	failed := func(l conformance.Level) conformance.Result {
		return conformance.Result{Case: conformance.Case{ID: "5.2/1", Level: l, Title: "t"}, Outcome: conformance.Fail}
	}
	pass := conformance.Result{Case: conformance.Case{ID: "4.2/1", Level: conformance.Must}, Outcome: conformance.Pass}
	for _, tc := range []struct {
		name            string
		results         []conformance.Result
		strict, stopped bool
		code            int
		stderr          string
	}{
		{"all pass", []conformance.Result{pass}, false, false, 0, ""},
		{"MUST fails", []conformance.Result{pass, failed(conformance.Must)}, false, false, 1, "FAIL: 5.2/1"},
		{"SHOULD fails", []conformance.Result{failed(conformance.Should)}, false, false, 0, "ok: no failure fails the run (5.2/1 SHOULD"},
		{"SHOULD fails strict", []conformance.Result{failed(conformance.Should)}, true, false, 1, "FAIL: 5.2/1"},
		{"GAME fails strict", []conformance.Result{failed(conformance.Game)}, true, false, 1, "FAIL: 5.2/1"},
		{"BEYOND fails strict", []conformance.Result{failed(conformance.Beyond)}, true, false, 0, "5.2/1 BEYOND"},
		{"interrupted", []conformance.Result{pass}, false, true, 2, "interrupted"},
		{"interrupted after a MUST failed", []conformance.Result{failed(conformance.Must)}, false, true, 1, "FAIL: 5.2/1"},
	} {
		var stderr bytes.Buffer
		rep := &conformance.Report{Mode: conformance.ServerMode, Results: tc.results}
		if code := verdict(rep, tc.strict, tc.stopped, &stderr); code != tc.code {
			t.Errorf("%s: exit %d, want %d", tc.name, code, tc.code)
		}
		if !strings.Contains(stderr.String(), tc.stderr) || tc.stderr == "" && stderr.Len() > 0 {
			t.Errorf("%s: stderr %q, want %q", tc.name, stderr.String(), tc.stderr)
		}
	}
}

// fakeClientArg, as its first argument, makes the test binary a tiny
// client of the server at its third: the client command of the
// client-mode tests. Its second is the sequence of its first packet: 1
// keeps §5.2, 2 breaks it. An argument, not the environment, lets the
// two run side by side.
const fakeClientArg = "-rtypecheck-test-client"

func TestMain(m *testing.M) {
	if len(os.Args) == 4 && os.Args[1] == fakeClientArg {
		seq, _ := strconv.ParseUint(os.Args[2], 10, 32)
		fakeClient(os.Args[3], uint32(seq))
		os.Exit(0)
	}
	// The runs against servers that never answer wait seconds each on
	// the network: they all wait at once.
	os.Exit(waiters.Run(m, 8))
}

// fakeClient sends Hello until a Welcome, then a packet with a Ping every
// 1/60 s from sequence first on, until SIGINT or 20 s.
func fakeClient(server string, first uint32) {
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, os.Interrupt)
	c, err := net.Dial("udp", server)
	if err != nil {
		return
	}
	defer c.Close()
	var id uint32
	buf := make([]byte, 2048)
	for end := time.Now().Add(10 * time.Second); id == 0 && time.Now().Before(end); {
		select {
		case <-quit:
			return
		default:
		}
		c.Write(rtype.AppendHello(nil))
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		if n, err := c.Read(buf); err == nil {
			if typ, cid, err := rtype.ParseHandshake(buf[:n]); err == nil && typ == rtype.HandshakeWelcome {
				id = cid
			}
		}
	}
	if id == 0 {
		return
	}
	tick := time.NewTicker(time.Second / 60)
	defer tick.Stop()
	for seq, end := first, time.Now().Add(20*time.Second); time.Now().Before(end); seq++ {
		b, _ := rtype.PacketHeader{ConnectionID: id, Sequence: seq}.AppendBinary(nil)
		b, _ = rtype.AppendMessage(b, rtype.Ping{Timestamp: seq})
		c.Write(b)
		select {
		case <-quit:
			return
		case <-tick.C:
		}
	}
}

// TestClientMode runs case 5.2/1 against the tiny client, which keeps the
// rule and then breaks it: exit 0 then 1, and the report's target is the
// client's command line.
func TestClientMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []clientCase{{"1", 0, "pass"}, {"2", 1, "fail"}} {
		t.Run("first="+tc.first, func(t *testing.T) {
			t.Parallel()
			clientMode(t, tc)
		})
	}
}

// clientCase is a client of TestClientMode: its first sequence, the exit
// status and the case's result it must get.
type clientCase struct {
	first  string
	code   int
	result string
}

// clientMode runs one client of TestClientMode.
func clientMode(t *testing.T, tc clientCase) {
	command := []string{os.Args[0], fakeClientArg, tc.first, "{addr}"}
	code, stdout, stderr := runCLI(t, append([]string{"client", "-json", "-run", `^5\.2/1$`, "--"}, command...)...)
	if code != tc.code {
		t.Errorf("first sequence %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.first, code, tc.code, stdout, stderr)
	}
	var rep struct {
		Mode, Target string
		Cases        []struct{ ID, Result string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	want := []struct{ ID, Result string }{{"5.2/1", tc.result}}
	if diff := cmp.Diff(want, rep.Cases); diff != "" || rep.Mode != "client" || rep.Target != strings.Join(command, " ") {
		t.Errorf("first sequence %s: mode %q target %q, cases (-want +got):\n%s", tc.first, rep.Mode, rep.Target, diff)
	}
}

// TestInterruptByHand: client mode without a command, interrupted while
// it waits for a client to connect, ends at once with exit 2.
func TestInterruptByHand(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut exampletest.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"client"}, &out, &errOut) }()
	exampletest.WaitFor(t, "the invitation to start a client", func() bool {
		return strings.Contains(errOut.String(), "start your client now")
	})
	cancel()
	start := time.Now()
	code := <-done
	if code != 2 || !strings.Contains(errOut.String(), "start your client now, against 127.0.0.1:") {
		t.Errorf("exit %d, want 2; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v after the interrupt", d)
	}
}
