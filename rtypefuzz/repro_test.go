package rtypefuzz

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exampleRepro is a finding on a server: its session's id is 0x2a.
func exampleRepro(t testing.TB) *Repro {
	at := 5 * time.Second
	sent := func(d time.Duration, h string) Datagram {
		return Datagram{At: at + d, Out: true, Bytes: unhex(t, h)}
	}
	return &Repro{
		Target:  Server,
		Oracle:  "stopped-answering",
		Section: "§12",
		Detail: "no Pong within 1s of a Ping, no answer to a fresh Hello, after " +
			"the datagrams below; the process was restarted before each replay " +
			"while the finding was shrunk",
		Seed: 42,
		Conn: 0x2a,
		Datagrams: []Datagram{
			sent(0, "0000002a00000005000000040000000000030004000000ff"),
			sent(16400*time.Microsecond, "0000002a0000000600000004ffffffff0083ffff"),
			sent(500*time.Millisecond, "0000000700000007"),
			sent(1200*time.Millisecond, ""),
			sent(1200*time.Millisecond, "525459"),
		},
	}
}

const exampleFile = `# R-Type protocol v1 fuzzer finding, for rtypecheck fuzz replay.
# target: server
# oracle: stopped-answering
# section: §12
# detail: no Pong within 1s of a Ping, no answer to a fresh Hello, after the
#         datagrams below; the process was restarted before each replay while
#         the finding was shrunk
# seed: 42
# conn: 0000002a
# A datagram sent a line: +SECONDS since the first, its hex, with
# {conn} for the session's connection id, which a replay replaces.
+0.000 {conn}00000005000000040000000000030004000000ff
+0.016 {conn}0000000600000004ffffffff0083ffff
+0.500 0000000700000007
+1.200
+1.200 525459
`

// normalised is r as a file holds it: times relative to the first, to the
// millisecond; no addresses.
func normalised(r *Repro) *Repro {
	n := *r
	n.Datagrams = nil
	for _, d := range r.Datagrams {
		at := (d.At - r.Datagrams[0].At).Round(time.Millisecond)
		n.Datagrams = append(n.Datagrams, Datagram{At: at, Out: true, Bytes: d.Bytes})
	}
	return &n
}

func writeRepro(t testing.TB, r *Repro) string {
	t.Helper()
	var b bytes.Buffer
	n, err := r.WriteTo(&b)
	if err != nil || n != int64(b.Len()) {
		t.Fatalf("WriteTo: %d, %v; wrote %d", n, err, b.Len())
	}
	return b.String()
}

func TestReproExample(t *testing.T) {
	r := exampleRepro(t)
	got := writeRepro(t, r)
	if got != exampleFile {
		t.Errorf("wrote\n%s\nwant\n%s", got, exampleFile)
	}
	back, err := ReadRepro(strings.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if want := normalised(r); !reflect.DeepEqual(back, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, want)
	}
}

// Write then read gives the same Repro, and comment lines fit 80 columns.
func TestReproRoundTrip(t *testing.T) {
	long := strings.Repeat("a word or two, ", 30)
	for i, r := range []*Repro{
		exampleRepro(t),
		{Target: Client, Oracle: "sent-invalid", Section: "§4 to §9.1", Detail: strings.TrimSpace(long), Seed: 1<<64 - 1},
		{Target: Client, Conn: 0xffffffff, Datagrams: []Datagram{
			{Out: true, Bytes: []byte{0xff, 0xff, 0xff, 0xff}},
			{At: 999999999999 * time.Millisecond, Out: true, Bytes: []byte{0xff, 0xff, 0xff}},
		}},
		{Target: Server, Conn: 0, Datagrams: []Datagram{{Out: true, Bytes: []byte{0, 0, 0, 0, 1}}}},
		{Target: Server, Detail: "one " + strings.Repeat("x", 100) + " two"},
	} {
		text := writeRepro(t, r)
		for j, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "#") && utf8.RuneCountInString(line) > 80 && !strings.Contains(line, "xxxx") {
				t.Errorf("%d: line %d has %d columns: %q", i, j+1, utf8.RuneCountInString(line), line)
			}
		}
		back, err := ReadRepro(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%d: %v\n%s", i, err, text)
		}
		if want := normalised(r); !reflect.DeepEqual(back, want) {
			t.Errorf("%d: read back\n%+v\nwant\n%+v\nfrom\n%s", i, back, want, text)
		}
	}
}

// What a file cannot hold is normalised: white space, unprintable
// characters, addresses, times going back; the reader accepts CRLF and
// upper-case hex, and comments anywhere.
func TestReproNormalised(t *testing.T) {
	a := netip.MustParseAddrPort("127.0.0.1:4242")
	r := &Repro{Target: Server, Oracle: " stopped-answering\n", Detail: "a\tb\x00c\n\nd \xff",
		Conn: 9, Datagrams: []Datagram{
			{At: time.Second, Out: true, From: a, To: a, Bytes: []byte{0, 0, 0, 9, 1}},
			{At: time.Millisecond, Out: true, Bytes: []byte{2}},
		}}
	back, err := ReadRepro(strings.NewReader(writeRepro(t, r)))
	if err != nil {
		t.Fatal(err)
	}
	want := &Repro{Target: Server, Oracle: "stopped-answering", Detail: "a b\uFFFDc d \uFFFD", Conn: 9,
		Datagrams: []Datagram{{Out: true, Bytes: []byte{0, 0, 0, 9, 1}}, {Out: true, Bytes: []byte{2}}}}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, want)
	}
	crlf := "# a comment\r\n# target: client\r\n\r\n+1.500 {conn}AB\r\n# conn: 1\r\n+2.000 0A\r\n"
	back, err = ReadRepro(strings.NewReader(crlf))
	if err != nil {
		t.Fatal(err)
	}
	want = &Repro{Target: Client, Conn: 1, Datagrams: []Datagram{
		{Out: true, Bytes: []byte{0, 0, 0, 1, 0xab}}, {At: 500 * time.Millisecond, Out: true, Bytes: []byte{10}}}}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, want)
	}
}

// Bytes puts the new session's id in place of the recorded one, in a copy.
func TestReproBytes(t *testing.T) {
	r := exampleRepro(t)
	for i, want := range []string{
		"deadbeef00000005000000040000000000030004000000ff",
		"deadbeef0000000600000004ffffffff0083ffff",
		"0000000700000007", // another id: a mutation's, kept
		"",
		"525459",
	} {
		if got := hex.EncodeToString(r.Bytes(i, 0xdeadbeef)); got != want {
			t.Errorf("Bytes(%d) = %s, want %s", i, got, want)
		}
	}
	if r.Datagrams[0].Bytes[0] != 0 {
		t.Error("Bytes changed the recorded datagram")
	}
	if r.Bytes(-1, 1) != nil || r.Bytes(5, 1) != nil {
		t.Error("Bytes out of range is not nil")
	}
}

// A malformed file is a *ReproError with its line, wrapping ErrRepro.
func TestReproMalformed(t *testing.T) {
	const head = "# target: server\n# conn: 2a\n"
	for _, c := range []struct {
		file string
		line int
	}{
		{"", 0},
		{"# oracle: x\n+0.000 00\n", 0},
		{"# target: both\n", 1},
		{head + "# seed: -1\n", 3},
		{head + "# seed: 1\n# seed: 1\n", 4},
		{"# target: server\n# conn: 123456789\n", 2},
		{"# target: server\n# conn: xyz\n", 2},
		{"# target: server\n# conn: 0\n+0.000 {conn}\n", 3},
		{"# target: server\n\n+0.000 00\n+0.000 {conn}00\n", 4},
		{head + "+0.000 0\n", 3},
		{head + "+0.000 zz\n", 3},
		{head + "+0.000 00{conn}\n", 3},
		{head + "+0.000  00\n", 3},
		{head + "+0.00 00\n", 3},
		{head + "+.000 00\n", 3},
		{head + "+1234567890.000 00\n", 3},
		{head + "+-1.000 00\n", 3},
		{head + "+1.000 00\n+0.999 00\n", 4},
		{head + "00\n", 3},
		{head + "+0.000 " + strings.Repeat("00", ReproMaxBytes+1) + "\n", 3},
		{head + "+0.000 " + strings.Repeat("00", reproMaxLine) + "\n", 3},
		{head + strings.Repeat("+0.000\n", ReproMaxDatagrams+1), 2 + ReproMaxDatagrams + 1},
	} {
		_, err := ReadRepro(strings.NewReader(c.file))
		var re *ReproError
		if !errors.Is(err, ErrRepro) || !errors.As(err, &re) || re.Line != c.line {
			t.Errorf("%.60q: %v, want an error at line %d", c.file, err, c.line)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReproIOErrors(t *testing.T) {
	if _, err := ReadRepro(failingReader{}); !errors.Is(err, ErrRepro) {
		t.Errorf("read error: %v", err)
	}
	for _, r := range []*Repro{
		{Target: 7},
		{Datagrams: []Datagram{{Out: false}}},
		{Datagrams: []Datagram{{Out: true, Bytes: make([]byte, ReproMaxBytes+1)}}},
	} {
		var b bytes.Buffer
		if n, err := r.WriteTo(&b); !errors.Is(err, ErrRepro) || n != 0 || b.Len() != 0 {
			t.Errorf("%+v: wrote %d, %v", r.Target, n, err)
		}
	}
}

// Whatever the bytes, ReadRepro does not panic; what it reads, it writes
// back as a file it reads the same.
func FuzzReadRepro(f *testing.F) {
	f.Add([]byte(exampleFile))
	f.Add([]byte("# target: client\n# conn: ff\n# detail: a\n#   b\n+0.001 {conn}\n+9.999 00\n"))
	f.Add([]byte("# target: server\n+0.000 {conn}00\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ReadRepro(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrRepro) {
				t.Fatalf("error %v does not wrap ErrRepro", err)
			}
			return
		}
		for i := range r.Datagrams {
			_ = r.Bytes(i, 0x01020304)
		}
		text := writeRepro(t, r)
		again, err := ReadRepro(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%v reading back\n%s", err, text)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("read back\n%+v\nwant\n%+v", again, r)
		}
	})
}

func ExampleRepro_WriteTo() {
	r := &Repro{Target: Server, Oracle: Exited.String(), Section: Exited.Section(),
		Detail: "the process exited: signal: segmentation fault", Seed: 7, Conn: 0x11,
		Datagrams: []Datagram{{Out: true, Bytes: []byte{0, 0, 0, 0x11, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0}}}}
	var b strings.Builder
	_, _ = r.WriteTo(&b)
	fmt.Print(b.String())
	// Output:
	// # R-Type protocol v1 fuzzer finding, for rtypecheck fuzz replay.
	// # target: server
	// # oracle: process-exited
	// # section: §12
	// # detail: the process exited: signal: segmentation fault
	// # seed: 7
	// # conn: 00000011
	// # A datagram sent a line: +SECONDS since the first, its hex, with
	// # {conn} for the session's connection id, which a replay replaces.
	// +0.000 {conn}000000020000000100000000
}
