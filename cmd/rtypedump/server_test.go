package main

import (
	"bytes"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// The finder takes for the server the address that answers a Hello with a
// Welcome (§4.2, §4.3), else the port valid connected packets name (§5.1,
// §6), else where unanswered Hellos went.
func TestServerFinder(t *testing.T) {
	port := randomPort(t)
	server := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), port)
	low := netip.MustParseAddrPort("10.0.0.9:1000") // below any randomPort
	welcomeAlone := captured{src: netip.MustParseAddrPort("10.0.0.53:53"), dst: simClient(0), data: rtype.AppendWelcome(nil, 9)}
	var flood []captured
	for i := range 3 * maxHellos {
		c := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 7, byte(i >> 8), byte(i)}), 40000)
		flood = append(flood, captured{src: c, dst: netip.MustParseAddrPort("10.0.0.8:7777"), data: rtype.AppendHello(nil)})
	}
	emptyBothWays := []captured{
		{src: simClient(0), dst: server, data: testPacket(t, 5, 1)},
		{src: server, dst: simClient(0), data: testPacket(t, 5, 1)},
	}
	type result struct {
		Port uint16
		By   evidence
	}
	for _, tt := range []struct {
		name string
		list []captured
		want result
	}{
		{"§4.3 a real game", simGame(t, server, 2, 2*time.Second), result{port, byWelcome}},
		{"§4.3 after a flood of Hellos elsewhere", append(flood, simGame(t, server, 1, time.Second)...), result{port, byWelcome}},
		{"§6 server messages name their source", midSession(t, low, server), result{port, byPackets}},
		{"§5.1 empty packets: the lower port", emptyBothWays, result{port, byPackets}},
		{"§4.2 Hellos never answered", hellosOnly(t, server, 3), result{port, byHellos}},
		{"a Welcome answering no Hello", append(dnsNoise(t, 3), welcomeAlone), result{}},
		{"DNS noise", dnsNoise(t, 5), result{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var f serverFinder
			if err := survey(bytes.NewReader(pcapOf(t, tt.list)), &f); err != nil {
				t.Fatal(err)
			}
			var got result
			got.Port, got.By = f.server()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("server (-want +got):\n%s", diff)
			}
		})
	}
}

// unwrapNotes joins the lines writeNote wrapped.
func unwrapNotes(s string) string { return strings.ReplaceAll(s, "\n  ", " ") }

// writeCapture writes a capture into a test directory and returns its path.
func writeCapture(t *testing.T, list []captured) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "capture.pcap")
	if err := os.WriteFile(path, pcapOf(t, list), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// modes are the ways to read a capture, each with the output it writes:
// stdout, or a file or directory named by out.
var modes = []struct {
	name  string
	args  func(out string) []string
	stdin bool
	file  bool // the output is out, not stdout
}{
	{name: "text", args: func(string) []string { return nil }},
	{name: "text from a pipe", args: func(string) []string { return nil }, stdin: true},
	{name: "json", args: func(string) []string { return []string{"-json"} }},
	{name: "stats", args: func(string) []string { return []string{"-stats"} }},
	{name: "stats from a pipe", args: func(string) []string { return []string{"-stats"} }, stdin: true},
	{name: "report", args: func(out string) []string { return []string{"-report", out} }, file: true},
	{name: "qlog", args: func(out string) []string { return []string{"-qlog", out} }, file: true},
	{name: "watch", args: func(string) []string { return []string{"-watch"} }},
}

// runMode runs rtypedump in mode m on the capture at path, with extra
// flags; it returns stdout, or what the output file or directory holds,
// stderr unwrapped, and the exit status.
func runMode(t *testing.T, m int, path string, extra ...string) (out, stderr string, code int) {
	t.Helper()
	mode := modes[m]
	dst := filepath.Join(t.TempDir(), "out")
	args := append(mode.args(dst), extra...)
	var in io.Reader = strings.NewReader("")
	if mode.stdin {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		in, path = struct{ io.Reader }{bytes.NewReader(b)}, "-"
	}
	var o, e bytes.Buffer
	code = run(append(args, path), in, &o, &e)
	out = o.String()
	if mode.file {
		out = readOutput(t, dst)
	}
	return out, unwrapNotes(e.String()), code
}

// readOutput returns what the file at path holds, or the files of the
// directory at path, "" when there is nothing there.
func readOutput(t *testing.T, path string) string {
	t.Helper()
	if b, err := os.ReadFile(path); err == nil {
		return string(b)
	}
	files, _ := filepath.Glob(filepath.Join(path, "*"))
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// A capture of a server on another port than 4242 decodes with no -port
// in every mode; -watch, which needs a terminal, gets past the capture.
func TestAutoPort(t *testing.T) {
	port := randomPort(t)
	server := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), port)
	path := writeCapture(t, append(dnsNoise(t, 3), simGame(t, server, 2, 2*time.Second)...))
	client := simClient(1).String()
	for m, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			out, stderr, code := runMode(t, m, path)
			if mode.name == "watch" {
				if code != exitInput || !strings.Contains(stderr, errNoTerminal.Error()) {
					t.Errorf("exit %d, stderr %q; want %d, no terminal", code, stderr, exitInput)
				}
				return
			}
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0, nothing", code, stderr)
			}
			if !strings.Contains(out, client) || strings.Contains(out, "example") {
				t.Errorf("output without client %s, or with DNS:\n%.600s", client, out)
			}
		})
	}
}

// -watch loads the clients of a server found in the capture.
func TestWatchFindsServer(t *testing.T) {
	port := randomPort(t)
	server := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), port)
	path := writeCapture(t, simGame(t, server, 2, time.Second))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rc, none, readErr := watchCapture(f, options{name: path})
	if readErr != nil || none != nil {
		t.Fatalf("read error %v, no client %v", readErr, none)
	}
	var got []string
	for _, c := range rc.clients {
		got = append(got, c.addr.String()+" of "+c.server.String())
		if len(c.dgrams) == 0 {
			t.Errorf("%v: nothing from the server", c.addr)
		}
	}
	want := []string{simClient(0).String() + " of " + server.String(), simClient(1).String() + " of " + server.String()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("clients (-want +got):\n%s", diff)
	}
}

// Without an R-Type client, -report, -watch, -stats and -qlog exit 1
// saying what the capture held, and write nothing; the datagrams' listing
// says it on stderr and exits 0.
func TestNoClient(t *testing.T) {
	port := randomPort(t)
	server := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), port)
	for _, tt := range []struct {
		name string
		list []captured
		want string // in stderr
		text string // in the datagrams' listing, "" for none
	}{
		{"DNS noise", dnsNoise(t, 4),
			"no R-Type client in $: 8 UDP datagrams between 4 ports (53, 33000, 33001, …), " +
				"none a Hello answered by a Welcome (§4.3) nor a connected packet (§5.1)", ""},
		{"garbage", []captured{{src: simClient(0), dst: server, data: []byte{0xde, 0xad}}},
			"no R-Type client in $: 1 UDP datagram between 2 ports", ""},
		{"§4.2 Hellos never answered", hellosOnly(t, server, 3),
			"3 Hellos to " + server.String() + " first (§4.2), none answered by a Welcome (§4.3), and no connected packet (§5.1)",
			"> " + server.String() + " handshake Hello"},
	} {
		path := writeCapture(t, tt.list)
		for m, mode := range modes {
			t.Run(tt.name+"/"+mode.name, func(t *testing.T) {
				out, stderr, code := runMode(t, m, path)
				source := path
				if mode.stdin {
					source = "stdin"
				}
				want := strings.ReplaceAll(tt.want, "$", source)
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q, want it to contain %q", stderr, want)
				}
				listing := strings.HasPrefix(mode.name, "text") || mode.name == "json"
				switch {
				case listing && code != exitOK:
					t.Errorf("exit %d, want 0", code)
				case !listing && (code != exitInput || out != ""):
					t.Errorf("exit %d, output %q; want 1, none", code, out)
				case mode.name == "text" && !strings.Contains(out, tt.text):
					t.Errorf("stdout %q, want it to contain %q", out, tt.text)
				}
			})
		}
	}
}

// -port overrides the server found: in a capture of two servers, the one
// named; on a port without a client, -stats fails naming the server found.
func TestPortOverrides(t *testing.T) {
	port := randomPort(t)
	first := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.1"), port)
	second := netip.AddrPortFrom(netip.MustParseAddr("192.0.2.2"), port+1)
	firstGame := simGame(t, first, 1, time.Second)
	secondGame := simGame(t, second, 1, time.Second)
	for i := range secondGame {
		// The second server's client is on another host.
		for _, a := range []*netip.AddrPort{&secondGame[i].src, &secondGame[i].dst} {
			if *a == simClient(0) {
				*a = netip.MustParseAddrPort("198.51.100.8:50000")
			}
		}
	}
	path := writeCapture(t, append(firstGame, secondGame...))
	const stats = 3
	for _, tt := range []struct {
		name      string
		port      []string
		code      int
		has, hasn string
	}{
		{"auto: the first answer", nil, exitOK, "client 198.51.100.7:50000", "198.51.100.8"},
		{"-port: the second server", []string{"-port", strconv.Itoa(int(second.Port()))}, exitOK, "client 198.51.100.8:50000", "198.51.100.7"},
		{"-port without a client", []string{"-port", strconv.Itoa(int(port) + 2)}, exitInput, "", "client"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runMode(t, stats, path, tt.port...)
			if code != tt.code || !strings.Contains(out, tt.has) || strings.Contains(out, tt.hasn) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q and not %q", code, out, stderr, tt.code, tt.has, tt.hasn)
			}
			if code == exitInput && !strings.Contains(stderr, "the server seems on port "+strconv.Itoa(int(first.Port()))) {
				t.Errorf("stderr %q names no server found", stderr)
			}
		})
	}
}
