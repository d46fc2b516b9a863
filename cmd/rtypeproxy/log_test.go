package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// lossyArgs impair both directions: up loses, down delays and duplicates.
var lossyArgs = []string{"-up-loss", "0.3", "-down-delay", "20ms", "-down-dup", "0.25"}

// sent is how many datagrams the client sends in a lossy run.
const sent = 60

// lossyRun sends sent datagrams through the proxy to the echoing fake
// server and returns the log, once every datagram that passed came back.
func lossyRun(t *testing.T, format string, seed int) (log, totals, server string) {
	t.Helper()
	srv := newFakeServer(t)
	args := append([]string{"-server", srv.addr(), "-log", format, "-seed", fmt.Sprint(seed)}, lossyArgs...)
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) { p.joined = func(c *client) { joined <- c } }, args...)
	c := dialProxy(t, r.p)
	for i := range sent {
		if _, err := c.Write([]byte(fmt.Sprintf("datagram %02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	// Every datagram is logged on arrival: sent up, and down as many as
	// the up link let through; the last ones leave 20 ms later.
	cl := receive(t, joined)
	exampletest.WaitFor(t, "every datagram logged and sent", func() bool {
		u, d := cl.stats[up].tally(), cl.stats[down].tally()
		return u.in == sent && u.out+u.dropped() == sent && d.in == u.out && d.out == d.in+d.dups
	})
	if code := r.stop(t); code != exitOK {
		t.Fatalf("exit %d: %s", code, r.stderr)
	}
	return r.stdout.String(), r.stderr.String(), srv.addr()
}

// textVerdict matches a datagram's line in the text log.
var textVerdict = regexp.MustCompile(`^#(\d+) \d+\.\d{6} (\S+) > (\S+) (?:handshake|packet) .* => (.+)$`)

// TestLogVerdictsText: each datagram's line ends with its verdict, the
// verdicts agree with the totals, and a seed repeats them.
func TestLogVerdictsText(t *testing.T) {
	log, totals, server := lossyRun(t, "text", 7)
	verdicts := map[string][]string{}
	for _, l := range lines(log) {
		m := textVerdict.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a datagram line with a verdict: %q", l)
		}
		dir := "up"
		if m[2] == server {
			dir = "down"
		} else if m[3] != server {
			t.Errorf("neither end is the server %s: %q", server, l)
		}
		verdicts[dir] = append(verdicts[dir], m[4])
	}
	count := func(dir, v string) (n int) {
		for _, x := range verdicts[dir] {
			if x == v {
				n++
			}
		}
		return n
	}
	lost, passed := count("up", "dropped (loss)"), count("up", "forwarded")
	if lost+passed != sent || lost == 0 || passed == 0 {
		t.Errorf("up verdicts: %d lost, %d forwarded, of %d: %v", lost, passed, sent, verdicts["up"])
	}
	dups, plain := count("down", "delayed by 20ms, duplicated"), count("down", "delayed by 20ms")
	if dups+plain != passed || dups == 0 || plain == 0 {
		t.Errorf("down verdicts: %d duplicated, %d not, of %d: %v", dups, plain, passed, verdicts["down"])
	}
	for _, want := range []string{
		fmt.Sprintf("up   in %d, out %d, dropped %d (loss %d), duplicated 0, mean added delay 0s", sent, passed, lost, lost),
		fmt.Sprintf("down in %d, out %d, dropped 0, duplicated %d, mean added delay 20ms", passed, passed+dups, dups),
	} {
		if !strings.Contains(unwrapTotals(totals), want) {
			t.Errorf("totals lack %q:\n%s", want, totals)
		}
	}
	again, _, _ := lossyRun(t, "text", 7)
	if d := cmp.Diff(verdictsOnly(log), verdictsOnly(again)); d != "" {
		t.Errorf("the same seed gave other verdicts (-first +second):\n%s", d)
	}
	other, _, _ := lossyRun(t, "text", 8)
	if cmp.Equal(verdictsOnly(log), verdictsOnly(other)) {
		t.Error("seeds 7 and 8 gave the same verdicts")
	}
}

// verdictsOnly lists the verdicts of the up datagrams, in order: the
// part of a log that repeats from run to run.
func verdictsOnly(log string) []string {
	var v []string
	for _, l := range lines(log) {
		if m := textVerdict.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[4], "delayed") {
			v = append(v, m[4])
		}
	}
	return v
}

// TestLogVerdictsJSON: each datagram is a JSON object of rtypedump's format
// with verdict, reason when dropped, delay in milliseconds when delayed, and
// duplicated.
func TestLogVerdictsJSON(t *testing.T) {
	log, _, server := lossyRun(t, "json", 7)
	type entry struct {
		N          int      `json:"n"`
		Src        string   `json:"src"`
		Dst        string   `json:"dst"`
		Kind       string   `json:"kind"`
		Verdict    string   `json:"verdict"`
		Reason     string   `json:"reason"`
		Delay      *float64 `json:"delay"`
		Duplicated bool     `json:"duplicated"`
	}
	got := map[string]int{}
	for i, l := range lines(log) {
		var e entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
		if e.N != i+1 || e.Kind != "handshake" || e.Src != server && e.Dst != server {
			t.Errorf("line %d: n %d, kind %q, %s > %s", i+1, e.N, e.Kind, e.Src, e.Dst)
		}
		key := e.Verdict
		switch e.Verdict {
		case "dropped":
			key += " " + e.Reason
		case "delayed":
			if e.Delay == nil || *e.Delay != 20 {
				t.Errorf("line %d: delay %v, want 20", i+1, e.Delay)
			}
		case "forwarded":
		default:
			t.Errorf("line %d: verdict %q", i+1, e.Verdict)
		}
		if e.Duplicated {
			key += " duplicated"
		}
		got[key]++
	}
	if got["dropped loss"] == 0 || got["forwarded"] == 0 || got["delayed duplicated"] == 0 || got["delayed"] == 0 ||
		got["dropped loss"]+got["forwarded"] != sent || got["delayed"]+got["delayed duplicated"] != got["forwarded"] {
		t.Errorf("verdicts: %v", got)
	}
}

// TestLogAnyDatagram: whatever a datagram holds, empty, garbage, a valid
// header over garbage, or 65,507 bytes, the log writes it as one datagram
// with its verdict, in both formats.
func TestLogAnyDatagram(t *testing.T) {
	client, server := netip.MustParseAddrPort("127.0.0.1:50001"), netip.MustParseAddrPort("127.0.0.1:4242")
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for _, n := range []int{0, 1, 5, 6, 15, 16, 17, 100, 1400, 65507} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, b)
	}
	inputs = append(inputs, []byte("RTYP\x01\x01"), []byte("RTYP\x01\x02\x00\x00\x00\x07"))
	for _, format := range []string{"text", "json"} {
		var out bytes.Buffer
		l := newLogger(&out, format == "json", server)
		for i, b := range inputs {
			out.Reset()
			dir := direction(i % 2)
			held := i%3 != 0 && i%2 == 1
			l.datagram(client, dir, b, time.Now(), verdict{dropped: i%3 == 0, reason: dropLoss, wait: time.Duration(i) * time.Millisecond, held: held})
			if held && dir == up {
				l.delivered(client, b)
			}
			first, _, _ := strings.Cut(out.String(), "\n")
			switch format {
			case "text":
				if !strings.Contains(first, " => ") || !strings.HasPrefix(first, fmt.Sprintf("#%d ", i+1)) {
					t.Errorf("%d bytes: first line %q", len(b), first)
				}
			case "json":
				var o map[string]any
				if err := json.Unmarshal(out.Bytes(), &o); err != nil || o["verdict"] == nil {
					t.Errorf("%d bytes: %v: %s", len(b), err, out.String())
				}
			}
		}
	}
}

// TestLogKindFollowsDelivery: the log tells handshakes from packets as the
// client does (§3): the datagrams of the server that a down delay holds
// behind its Welcome reach the client after it, so they are connected
// packets, although the Welcome was still held when they came. The delay
// is 5 s: the test needs the packet's echo to come while the Welcome is
// held, and a test process starved for 2 s on a busy machine missed it.
func TestLogKindFollowsDelivery(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t) // echoes: the client's Welcome comes back down as the server's
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) { p.joined = func(c *client) { joined <- c } }, "-server", srv.addr(), "-down-delay", "5s")
	c := dialProxy(t, r.p)
	packet, err := rtype.PacketHeader{ConnectionID: 9, Sequence: 1}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	send := func(b []byte) {
		t.Helper()
		if _, err := c.Write(b); err != nil {
			t.Fatal(err)
		}
		srv.next(t)
	}
	send(rtype.AppendWelcome(nil, 9))
	cl := receive(t, joined)
	exampletest.WaitFor(t, "the Welcome's echo logged", func() bool { return cl.stats[down].in.Load() == 1 })
	send(packet) // while the Welcome is held: it reaches the client behind it
	exampletest.WaitFor(t, "the packet's echo logged", func() bool { return cl.stats[down].in.Load() == 2 })
	if cl.stats[down].out.Load() != 0 {
		t.Fatal("the Welcome was delivered before the packet's echo came: the machine stalled for 5 s")
	}
	if b := readWithin(t, c); !bytes.Equal(b, rtype.AppendWelcome(nil, 9)) {
		t.Fatalf("the client got %x first, not the Welcome", b)
	}
	readWithin(t, c) // the echo of the packet
	other, err := rtype.PacketHeader{ConnectionID: 10, Sequence: 2}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	send(other) // §5.4: not the connection the Welcome gave
	up := []string{"handshake Welcome connectionId=9 => forwarded", "packet connectionId=9 sequence=1",
		"packet INVALID (connection id 10 differs from the Welcome's 9 (§5.4))"}
	down := []string{"handshake Welcome connectionId=9 => delayed by 5s", "packet connectionId=9 sequence=1",
		"packet INVALID (connection id 10 differs from the Welcome's 9 (§5.4))"}
	exampletest.WaitFor(t, "every datagram logged", func() bool { return len(lines(r.stdout.String())) >= len(up)+len(down) })
	var gotUp, gotDown []string
	for _, l := range lines(r.stdout.String()) {
		if m := textVerdict.FindStringSubmatch(l); m != nil && m[2] == srv.addr() {
			gotDown = append(gotDown, l)
		} else if m != nil {
			gotUp = append(gotUp, l)
		}
	}
	for _, d := range []struct {
		name      string
		got, want []string
	}{{"client to server", gotUp, up}, {"server to client", gotDown, down}} {
		if len(d.got) != len(d.want) {
			t.Fatalf("%s: %d datagrams logged, want %d:\n%s", d.name, len(d.got), len(d.want), strings.Join(d.got, "\n"))
		}
		for i, l := range d.got {
			if !strings.Contains(l, d.want[i]) {
				t.Errorf("%s, datagram %d: %q lacks %q", d.name, i+1, l, d.want[i])
			}
		}
	}
}
