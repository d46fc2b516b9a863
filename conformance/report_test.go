package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

var updateReports = flag.Bool("update-reports", false, "rewrite the golden reports in testdata/reports")

// syntheticReport has a pass, a fail and a skip of each level, over three
// sections, the first failure with a recorded exchange.
func syntheticReport(t *testing.T) *Report {
	t.Helper()
	client := netip.MustParseAddrPort("127.0.0.1:50001")
	server := netip.MustParseAddrPort("127.0.0.1:4242")
	hdr, err := rtype.PacketHeader{ConnectionID: 7, Sequence: 3, Ack: 0, AckBits: 0}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	ping, err := rtype.AppendMessage(hdr, rtype.Ping{Timestamp: 1000})
	if err != nil {
		t.Fatal(err)
	}
	exchange := []Datagram{
		{At: 1 * time.Millisecond, Src: client, Dst: server, Handshake: true, Bytes: rtype.AppendHello(nil)},
		{At: 2 * time.Millisecond, Src: server, Dst: client, Handshake: true, Bytes: rtype.AppendWelcome(nil, 7)},
		{At: 5 * time.Millisecond, Src: client, Dst: server, Bytes: ping},
		{At: 5 * time.Millisecond, Src: client, Dst: server, Bytes: ping},
		{At: 9 * time.Millisecond, Src: server, Dst: client, Bytes: []byte{0xde, 0xad}},
	}
	res := func(id string, l Level, title string, o Outcome, detail string, ms int) Result {
		return Result{Case: Case{ID: id, Level: l, Title: title}, Outcome: o, Detail: detail, Duration: time.Duration(ms)*time.Millisecond + 400*time.Microsecond}
	}
	results := []Result{
		res("4.1/1", Must, "the server answers a valid Hello with a Welcome", Pass, "", 3),
		res("4.1/2", Must, "a Hello of another size is not answered", NotRun, "the server never answered a valid Hello", 0),
		res("5.2/1", Must, "a duplicate sequence is dropped", Fail,
			"packet seq 3 with Ping timestamp=1000 sent twice; a Pong for each came back within 4ms\nthe second should have been dropped (§5.2)", 105),
		res("5.2/2", Should, "a packet too old for the window is not processed", Pass, "", 12),
		res("5.2/3", Should, "acks reflect the packets received", Fail, "ack=2 after seq 3 came; want ack=3", 40),
		res("5.2/4", Should, "an out-of-order packet within 32 is processed", NotRun, "no Pong for the probe Ping within 1s", 1000),
		res("10/1", Game, "a ship moves 4 px per frame with Up held", Pass, "", 250),
		res("10/2", Game, "a missile is spawned on Shoot", Fail, "no CreateEntity of a missile within 500ms of Shoot", 500),
		res("10/3", Game, "Bydos spawn", NotRun, "no Bydos spawned within 5s", 5000),
		res("13.1/1", Beyond, "a full server answers Rejected", Pass, "", 8),
		res("13.3/1", Beyond, "an idle connection times out", Fail, "packets still answered 12s after the last one sent, want < 10s & > 0", 12000),
		res("13.4/1", Beyond, "a lost DestroyEntity is sent again", NotRun, "no entity was destroyed while connected", 2000),
	}
	results[2].Exchange = exchange
	return &Report{Mode: ServerMode, Target: "127.0.0.1:4242", Results: results}
}

// TestReportGolden checks each writer's output of the synthetic report
// against its golden file; go test -run TestReportGolden -update-reports rewrites
// them.
func TestReportGolden(t *testing.T) {
	rep := syntheticReport(t)
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"report.txt", func(b *bytes.Buffer) error { return rep.WriteText(b, false) }},
		{"report_verbose.txt", func(b *bytes.Buffer) error { return rep.WriteText(b, true) }},
		{"report.json", func(b *bytes.Buffer) error { return rep.WriteJSON(b) }},
		{"report.xml", func(b *bytes.Buffer) error { return rep.WriteJUnit(b) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var got bytes.Buffer
			if err := tc.write(&got); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "reports", tc.file)
			if *updateReports {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestTextReport checks the text report's fixed parts: one heading per
// section, one line a case with its result, id, level, title and time, the
// details indented, the summary line last, and with verbose only failed
// cases' datagrams.
func TestTextReport(t *testing.T) {
	rep := syntheticReport(t)
	var plain, verbose bytes.Buffer
	if err := rep.WriteText(&plain, false); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteText(&verbose, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(plain.String(), "\n"), "\n")
	if got, want := lines[len(lines)-1], "4 passed, 4 failed, 4 not run"; got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
	var headings []string
	for _, l := range lines {
		if strings.HasPrefix(l, "§") {
			headings = append(headings, l)
		}
	}
	if diff := cmp.Diff([]string{"§4.1", "§5.2", "§10", "§13.1", "§13.3", "§13.4"}, headings); diff != "" {
		t.Errorf("section headings (-want +got):\n%s", diff)
	}
	for _, tc := range []struct{ line, next string }{
		{"  PASS     4.1/1   MUST        3 ms  the server answers a valid Hello with a", "                                     Welcome"},
		{"  NOT RUN  4.1/2   MUST        0 ms  a Hello of another size is not answered", indent + "the server never answered a valid Hello"},
		{"  FAIL     5.2/1   MUST      105 ms  a duplicate sequence is dropped", indent + "packet seq 3 with Ping"},
		{indent + "packet seq 3 with Ping timestamp=1000 sent twice; a Pong for each came", indent + "back within 4ms"},
		{indent + "back within 4ms", indent + "the second should"},
		{"  FAIL     13.3/1  BEYOND  12000 ms  an idle connection times out", indent + "packets still answered"},
	} {
		i := indexOf(lines, tc.line)
		if i < 0 || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], tc.next) {
			t.Errorf("want line %q followed by %q in:\n%s", tc.line, tc.next, plain.String())
		}
	}
	if strings.Contains(plain.String(), "handshake") {
		t.Errorf("datagrams in the report without verbose:\n%s", plain.String())
	}
	// The failure with an exchange shows its five datagrams, in rtypedump's
	// format, times from the first one; the other failures have none.
	for _, want := range []string{
		indent + "#1 0.000000 127.0.0.1:50001 > 127.0.0.1:4242 handshake Hello\n",
		indent + "#2 0.001000 127.0.0.1:4242 > 127.0.0.1:50001 handshake Welcome\n" + indent + goesOn + "connectionId=7\n",
		indent + "#3 0.004000 127.0.0.1:50001 > 127.0.0.1:4242 packet connectionId=7\n" + indent + goesOn + "sequence=3",
		indent + "  Ping size=4 timestamp=1000\n",
		indent + "#5 0.008000 127.0.0.1:4242 > 127.0.0.1:50001 packet INVALID",
	} {
		if !strings.Contains(verbose.String(), want) {
			t.Errorf("verbose report lacks %q:\n%s", want, verbose.String())
		}
	}
	if n := strings.Count(verbose.String(), "(no datagram recorded)"); n != 3 {
		t.Errorf("%d failed cases without datagrams marked, want 3:\n%s", n, verbose.String())
	}
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

// TestTextReportFitsWidth renders a report of the longest titles, long
// details and a recorded exchange at 80 columns, the width off a
// terminal, and at others: no line is wider, counted in runes (§ takes
// one column); the outcome, id, level and time of each case stand in
// their columns; and the words read as they did.
func TestTextReportFitsWidth(t *testing.T) {
	rep := syntheticReport(t)
	var longest Case
	for _, m := range []Mode{ServerMode, ClientMode} {
		for _, c := range Cases(m) {
			if len(c.Title) > len(longest.Title) {
				longest = c
			}
		}
	}
	detail := "connection 2230429141 sent packet 12 with connectionId 2230429142 and a Ping: the server answered it with a Pong in its packet 9 at 1.234s, " +
		"from [2001:db8:1234:5678:9abc:def0:1234:5678]:65535 (% x) " + strings.Repeat("ab", 60)
	long := Result{Case: longest, Outcome: Fail, Detail: detail, Duration: 123456 * time.Millisecond, Exchange: rep.Results[2].Exchange}
	rep.Results = append(rep.Results, long)
	for _, width := range []int{80, 40, 60, 100, 132} {
		var b bytes.Buffer
		tw := NewTextWriter(&b, true)
		tw.SetWidth(width)
		for _, r := range rep.Results {
			tw.Result(r)
		}
		tw.End(rep)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("at %d columns, a line of %d:\n%s", width, n, l)
			}
		}
		caseLine := regexp.MustCompile(`^  (PASS|FAIL|NOT RUN) +(\S+) +(MUST|SHOULD|GAME|BEYOND) +(\d+) ms`)
		n := 0
		for _, l := range lines {
			m := caseLine.FindStringSubmatchIndex(l)
			if m == nil {
				continue
			}
			n++
			// The time ends its column, or fills it and more when wider.
			idAt := 2 + outcomeWidth + 2
			timeAt := idAt + idWidth + 2 + levelWidth + 2
			if m[4] != idAt || m[6] != idAt+idWidth+2 || m[9] != timeAt+timeWidth-len(" ms") && m[8] != timeAt {
				t.Errorf("at %d columns, a case line out of its columns:\n%s", width, l)
			}
		}
		if n != len(rep.Results) {
			t.Errorf("at %d columns, %d case lines for %d results", width, n, len(rep.Results))
		}
		var wide bytes.Buffer
		tw = NewTextWriter(&wide, true)
		tw.SetWidth(100000)
		for _, r := range rep.Results {
			tw.Result(r)
		}
		tw.End(rep)
		// A word cut apart reads whole again.
		if got, want := strings.Join(strings.Fields(b.String()), ""), strings.Join(strings.Fields(wide.String()), ""); got != want {
			t.Errorf("at %d columns the report reads otherwise than in long lines:\n%s", width, b.String())
		}
	}
	var def bytes.Buffer
	rep.WriteText(&def, true)
	for _, l := range strings.Split(def.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("WriteText: a line of %d columns, over 80:\n%s", n, l)
		}
	}
}

// TestTextWriterStreams checks that results written one by one, as a run
// reports them, give exactly WriteText's report.
func TestTextWriterStreams(t *testing.T) {
	rep := syntheticReport(t)
	var whole, streamed bytes.Buffer
	if err := rep.WriteText(&whole, true); err != nil {
		t.Fatal(err)
	}
	tw := NewTextWriter(&streamed, true)
	for _, r := range rep.Results {
		if err := tw.Result(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.End(rep); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole.String(), streamed.String()); diff != "" {
		t.Errorf("streamed report differs (-whole +streamed):\n%s", diff)
	}
}

// TestTextReportEmpty: a run stopped before any case ended still ends
// with the summary line.
func TestTextReportEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := (&Report{Mode: ClientMode}).WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "0 passed, 0 failed, 0 not run\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestJSONReport parses the JSON report back with the fixed field names of
// the issue and compares it whole.
func TestJSONReport(t *testing.T) {
	type jcase struct {
		ID, Section, Level, Title, Result, Detail string
		MS                                        int64
	}
	type jreport struct {
		Mode, Target string
		Cases        []jcase
		Summary      struct {
			Pass, Fail int
			NotRun     int `json:"not_run"`
		}
	}
	rep := syntheticReport(t)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 1 || !strings.HasSuffix(b.String(), "}\n") {
		t.Errorf("want one JSON object on one line, got %d lines:\n%s", n, b.String())
	}
	text := b.String()
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	var got jreport
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := jreport{Mode: "server", Target: "127.0.0.1:4242"}
	want.Summary.Pass, want.Summary.Fail, want.Summary.NotRun = 4, 4, 4
	for _, r := range rep.Results {
		want.Cases = append(want.Cases, jcase{
			ID: r.Case.ID, Section: r.Case.Section(), Level: r.Case.Level.String(), Title: r.Case.Title,
			Result: r.Outcome.String(), Detail: r.Detail, MS: r.Duration.Milliseconds(),
		})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON report (-want +got):\n%s", diff)
	}
	// Exact key names and values a script greps for.
	for _, s := range []string{`"mode":"server"`, `"id":"5.2/1"`, `"section":"13.3"`, `"level":"BEYOND"`,
		`"result":"not run"`, `"ms":105`, `"detail":""`, `"summary":{"pass":4,"fail":4,"not_run":4}`, `& > 0`} {
		if !strings.Contains(text, s) {
			t.Errorf("JSON report lacks %s", s)
		}
	}
}

// TestJSONReportEmpty: no case gives an empty list, not null.
func TestJSONReportEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := (&Report{Mode: ClientMode, Target: "bot -server {addr}"}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{"mode":"client","target":"bot -server {addr}","cases":[],"summary":{"pass":0,"fail":0,"not_run":0}}` + "\n"
	if got := b.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestJUnitReport parses the JUnit report with encoding/xml: one suite,
// one testcase per case with its section as classname, a failure (typed
// by level) for each failed case whatever its level, a skipped element for
// each skipped one.
func TestJUnitReport(t *testing.T) {
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Classname string   `xml:"classname,attr"`
		Name      string   `xml:"name,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure"`
		Skipped   *struct {
			Message string `xml:"message,attr"`
		} `xml:"skipped"`
	}
	type testsuite struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Failures   int    `xml:"failures,attr"`
		Skipped    int    `xml:"skipped,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []testcase `xml:"testcase"`
	}
	var doc struct {
		XMLName xml.Name    `xml:"testsuites"`
		Suites  []testsuite `xml:"testsuite"`
	}
	rep := syntheticReport(t)
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), xml.Header) {
		t.Errorf("no XML declaration:\n%s", b.String())
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Name != "rtypecheck server" || s.Tests != 12 || s.Failures != 4 || s.Skipped != 4 {
		t.Errorf("suite %q tests=%d failures=%d skipped=%d, want rtypecheck server 12 4 4", s.Name, s.Tests, s.Failures, s.Skipped)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	if diff := cmp.Diff(map[string]string{"mode": "server", "target": "127.0.0.1:4242"}, props); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	if len(s.Cases) != len(rep.Results) {
		t.Fatalf("%d testcases, want %d", len(s.Cases), len(rep.Results))
	}
	for i, r := range rep.Results {
		tc := s.Cases[i]
		name := r.Case.ID + " [" + r.Case.Level.String() + "] " + r.Case.Title
		if tc.Classname != r.Case.Section() || tc.Name != name {
			t.Errorf("testcase %d: classname %q name %q, want %q %q", i, tc.Classname, tc.Name, r.Case.Section(), name)
		}
		if want := seconds(r.Duration); tc.Time != want {
			t.Errorf("%s: time %q, want %q", r.Case.ID, tc.Time, want)
		}
		switch r.Outcome {
		case Pass:
			if tc.Failure != nil || tc.Skipped != nil {
				t.Errorf("%s passed but has a failure or skipped element", r.Case.ID)
			}
		case Fail:
			want := &failure{Message: r.Detail, Type: r.Case.Level.String(), Text: r.Detail}
			if diff := cmp.Diff(want, tc.Failure); diff != "" || tc.Skipped != nil {
				t.Errorf("%s: failure (-want +got):\n%s", r.Case.ID, diff)
			}
		case NotRun:
			if tc.Skipped == nil || tc.Skipped.Message != r.Detail || tc.Failure != nil {
				t.Errorf("%s: want only <skipped message=%q>, got %+v", r.Case.ID, r.Detail, tc)
			}
		}
	}
	if got := s.Cases[2].Time; got != "0.105" {
		t.Errorf("5.2/1 time %q, want 0.105 (seconds)", got)
	}
}

// A run that did not start is a report with Error and no case: the JSON
// report carries it as "error", the JUnit one as its one testcase, with an
// <error>; a report that ran has neither.
func TestErrorReport(t *testing.T) {
	rep := &Report{Mode: ServerMode, Target: "127.0.0.1:4242", Error: "not reachable: no answer"}
	var j, x bytes.Buffer
	if err := rep.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	want := `{"mode":"server","target":"127.0.0.1:4242","error":"not reachable: no answer","cases":[],"summary":{"pass":0,"fail":0,"not_run":0}}` + "\n"
	if j.String() != want {
		t.Errorf("JSON\n%s\nwant\n%s", j.String(), want)
	}
	if err := rep.WriteJUnit(&x); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<testsuites name="rtypecheck server" tests="1" failures="0" errors="1"`, `<testsuite name="rtypecheck server" tests="1" failures="0" errors="1"`,
		`<testcase classname="rtypecheck" name="rtypecheck server 127.0.0.1:4242" time="0.000">`, `<error message="not reachable: no answer" type="error">not reachable: no answer</error>`} {
		if !strings.Contains(x.String(), w) {
			t.Errorf("JUnit lacks %s:\n%s", w, x.String())
		}
	}
	var ran bytes.Buffer
	if err := syntheticReport(t).WriteJSON(&ran); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ran.String(), `"error"`) {
		t.Errorf("a report that ran has an error key:\n%s", ran.String())
	}
}

// TestStatusAndRungNames: the names the report and tests print.
func TestStatusAndRungNames(t *testing.T) {
	for _, tc := range []struct {
		got  fmt.Stringer
		want string
	}{
		{Conformant, "conformant"}, {NonConformant, "non-conformant"}, {Undecided, "undecided"}, {Status(9), "unknown"},
		{Held, "held"}, {Missing, "missing"}, {Untried, "untried"}, {RungState(9), "unknown"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("%#v: %q, want %q", tc.got, s, tc.want)
		}
	}
}
