package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

const dissector = "../../tools/wireshark/rtype.lua"

// lookTshark returns the path of tshark, and skips the test where it is not
// installed, but for CI, where the test fails instead. It reads the
// dissector, so that go test's cache depends on it.
func lookTshark(t *testing.T) string {
	t.Helper()
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tshark is required in CI: apt-get install tshark")
		}
		t.Skip("tshark not installed")
	}
	if _, err := os.ReadFile(dissector); err != nil {
		t.Fatal(err)
	}
	return tshark
}

// tsharkFields are the dissector fields the cross-check reads, in the order
// of the tshark columns.
var tsharkFields = []string{
	"frame.number", "_ws.expert.severity",
	"rtype.kind", "rtype.valid",
	"rtype.handshake.type", "rtype.handshake.connection_id",
	"rtype.header.connection_id", "rtype.header.sequence", "rtype.header.ack", "rtype.header.ack_bits",
	"rtype.msg.type", "rtype.msg.size", "rtype.msg.valid",
	"rtype.input.input_sequence", "rtype.input.client_tick", "rtype.input.actions",
	"rtype.ping.timestamp", "rtype.disconnect.reason", "rtype.query_entity.network_id",
	"rtype.snapshot.server_tick", "rtype.snapshot.count", "rtype.snapshot.network_id",
	"rtype.snapshot.entity_type", "rtype.snapshot.position_x", "rtype.snapshot.position_y", "rtype.snapshot.rotation",
	"rtype.create_entity.server_tick", "rtype.create_entity.network_id", "rtype.create_entity.entity_type",
	"rtype.create_entity.position_x", "rtype.create_entity.position_y", "rtype.create_entity.rotation",
	"rtype.destroy_entity.server_tick", "rtype.destroy_entity.network_id", "rtype.destroy_entity.reason",
	"rtype.pong.timestamp",
}

// messageFields maps the JSON fields of each message to dissector fields.
var messageFields = map[string]map[string]string{
	"Input":         {"inputSequence": "rtype.input.input_sequence", "clientTick": "rtype.input.client_tick", "actions": "rtype.input.actions"},
	"Ping":          {"timestamp": "rtype.ping.timestamp"},
	"Disconnect":    {"reason": "rtype.disconnect.reason"},
	"QueryEntity":   {"networkId": "rtype.query_entity.network_id"},
	"Snapshot":      {"serverTick": "rtype.snapshot.server_tick", "entityCount": "rtype.snapshot.count"},
	"CreateEntity":  {"serverTick": "rtype.create_entity.server_tick", "networkId": "rtype.create_entity.network_id", "entityType": "rtype.create_entity.entity_type", "positionX": "rtype.create_entity.position_x", "positionY": "rtype.create_entity.position_y", "rotation": "rtype.create_entity.rotation"},
	"DestroyEntity": {"serverTick": "rtype.destroy_entity.server_tick", "networkId": "rtype.destroy_entity.network_id", "reason": "rtype.destroy_entity.reason"},
	"Pong":          {"timestamp": "rtype.pong.timestamp"},
}

var stateFields = map[string]string{
	"networkId": "rtype.snapshot.network_id", "entityType": "rtype.snapshot.entity_type",
	"positionX": "rtype.snapshot.position_x", "positionY": "rtype.snapshot.position_y", "rotation": "rtype.snapshot.rotation",
}

var actionBits = map[string]uint64{"Up": 1, "Down": 2, "Left": 4, "Right": 8, "Shoot": 16}

// expertError is the value of _ws.expert.severity for an error.
const expertError = "8388608"

// TestDissectorMatchesRtypedump decodes the same captures with the Wireshark
// dissector and with rtypedump and compares, for every datagram, the kind
// (§3), the validity, the header and every message field. It runs where
// tshark is installed, and must run in CI.
func TestDissectorMatchesRtypedump(t *testing.T) {
	t.Parallel()
	tshark := lookTshark(t)
	// The committed captures are what their generators and the loopback
	// session produce (TestGolden, TestLoopbackCapture); their dissection
	// is shared with the tests of their verdicts.
	rules := filepath.Join(t.TempDir(), "rules.pcap")
	writeCaptureFile(t, rules, hexCapture(t, 5000))

	for _, tc := range []struct {
		name, file string
		port       uint16
	}{
		{"loopback session", "testdata/loopback.pcap", rtype.DefaultPort},
		{"every rule, server on port 5000", rules, 5000},
		{"§5.4 connection ids", "testdata/connid.pcap", rtype.DefaultPort},
		{"§3, §7.3 reconnection, §5.2 windows", "testdata/reconnect.pcap", rtype.DefaultPort},
		{"§13 phases", "testdata/phases.pcap", rtype.DefaultPort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each runs tshark, a second's start
			stdout, stderr, code := runTool(t, "", "-json", "-port", strconv.Itoa(int(tc.port)), tc.file)
			if code != exitOK {
				t.Fatalf("rtypedump exit %d: %s", code, stderr)
			}
			want := expectedFields(t, stdout)
			got := dissect(t, tshark, tc.file, tc.port)
			if len(want) == 0 {
				t.Fatal("rtypedump decoded no datagram")
			}
			for n, w := range want {
				g, ok := got[n]
				if !ok {
					t.Errorf("frame %d: the dissector did not decode it", n)
					continue
				}
				checkFrame(t, n, w, g)
			}
			for n, g := range got {
				if _, ok := want[n]; !ok && g["rtype.kind"] != nil {
					t.Errorf("frame %d: decoded by the dissector only", n)
				}
			}
		})
	}
}

// §5.4: rtypedump and the dissector flag the packets of connid.pcap whose
// connection id is not the one the Welcome to their client gave, to the
// server and to the client, each with its own expert info in the dissector,
// and keep every packet with the Welcome's id; frame 12, of id 0, is
// malformed instead. The dissector part runs where tshark is installed.
func TestConnectionIDDiffersFlagged(t *testing.T) {
	stdout, stderr, code := runTool(t, "", "-json", "testdata/connid.pcap")
	if code != exitOK {
		t.Fatalf("rtypedump exit %d: %s", code, stderr)
	}
	const frames, zeroID = 13, 12
	check := func(tool string, n int, valid bool, errText string, wrongConn bool) {
		t.Helper()
		want, flagged := connIDFlagged[n]
		switch {
		case flagged && (valid || !strings.HasPrefix(errText, want) || !wrongConn):
			t.Errorf("%s frame %d: valid %v, error %q, wrong-connection flag %v; want dropped with %q", tool, n, valid, errText, wrongConn, want)
		case n == zeroID && (valid || wrongConn):
			t.Errorf("%s frame %d: valid %v, wrong-connection flag %v; want malformed for id 0", tool, n, valid, wrongConn)
		case !flagged && n != zeroID && (!valid || wrongConn):
			t.Errorf("%s frame %d: dropped (%q); it has the Welcome's id or is a handshake", tool, n, errText)
		}
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != frames {
		t.Fatalf("rtypedump printed %d datagrams, want %d", len(lines), frames)
	}
	for _, line := range lines {
		var d struct {
			N     int
			Valid bool
			Error string
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		check("rtypedump", d.N, d.Valid, d.Error, strings.Contains(d.Error, "(§5.4)") && strings.Contains(d.Error, "differs"))
	}

	got := dissect(t, lookTshark(t), "testdata/connid.pcap", rtype.DefaultPort)
	if len(got) != frames {
		t.Fatalf("tshark printed %d frames, want %d", len(got), frames)
	}
	for n, ff := range got {
		check("dissector", n, joined(ff, "rtype.valid") == "1", joined(ff, "rtype.error"), len(ff["rtype.wrong_connection"]) > 0)
	}
}

// §3, §4.2, §5.2, §5.4, §7.3: rtypedump and the dissector give each frame
// of reconnect.pcap the kind and the drop of reconnectVerdicts: a client
// address is read as handshake again after an accepted Disconnect, and as
// handshake still after a Welcome for as long as the client sent no
// accepted packet, the last Welcome giving the id; each direction drops
// duplicates and too old sequences.
func TestReconnectVerdicts(t *testing.T) {
	checkVerdicts(t, "testdata/reconnect.pcap", reconnectVerdicts)
}

// §4.2, §13: rtypedump and the dissector give each frame of phases.pcap
// the verdict of phasesFrames.
func TestPhasesVerdicts(t *testing.T) {
	frames := phasesFrames(t)
	verdicts := make([]frameVerdict, len(frames))
	for i := range frames {
		verdicts[i] = frames[i].frameVerdict
	}
	checkVerdicts(t, "testdata/phases.pcap", verdicts)
}

// checkVerdicts checks that rtypedump and the dissector give each frame of
// file the kind and the start of the error of verdicts, in order; a
// verdict of kind "" is a frame neither decodes. The dissector is run in
// two passes and in one, and must agree in both.
func checkVerdicts(t *testing.T, file string, verdicts []frameVerdict) {
	t.Helper()
	decoded := 0
	for _, v := range verdicts {
		if v.kind != "" {
			decoded++
		}
	}
	check := func(tool string, n int, kind, errText string) {
		t.Helper()
		if n < 1 || n > len(verdicts) {
			t.Errorf("%s: frame %d is not in the capture", tool, n)
			return
		}
		w := verdicts[n-1]
		if kind != w.kind || (w.err == "") != (errText == "") || !strings.Contains(errText, w.err) {
			t.Errorf("%s frame %d: %q, error %q; want %q, error %q", tool, n, kind, errText, w.kind, w.err)
		}
	}
	stdout, stderr, code := runTool(t, "", "-json", file)
	if code != exitOK {
		t.Fatalf("rtypedump exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != decoded {
		t.Errorf("rtypedump printed %d datagrams, want %d", len(lines), decoded)
	}
	for _, line := range lines {
		var d struct {
			N     int
			Kind  string
			Error string
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		check("rtypedump", d.N, d.Kind, d.Error)
	}

	tshark := lookTshark(t)
	two := dissect(t, tshark, file, rtype.DefaultPort)
	if len(two) != len(verdicts) {
		t.Fatalf("tshark -2 printed %d frames, want %d", len(two), len(verdicts))
	}
	for n, ff := range two {
		check("dissector [-2]", n, joined(ff, "rtype.kind"), joined(ff, "rtype.error"))
	}
	args := []string{"-X", "lua_script:" + dissector, "-r", file,
		"-T", "fields", "-E", "separator=/t", "-e", "frame.number", "-e", "rtype.kind", "-e", "rtype.error"}
	rows := strings.Split(strings.TrimSuffix(runTshark(t, tshark, args), "\n"), "\n")
	if len(rows) != len(verdicts) {
		t.Fatalf("tshark in one pass printed %d frames, want %d", len(rows), len(verdicts))
	}
	for _, row := range rows {
		cols := strings.Split(row, "\t")
		if len(cols) != 3 {
			t.Fatalf("tshark row %q", row)
		}
		n, _ := strconv.Atoi(cols[0])
		check("dissector []", n, cols[1], cols[2])
	}
}

// frameFields are the values of each field in one frame, in order.
type frameFields map[string][]string

func checkFrame(t *testing.T, n int, want, got frameFields) {
	t.Helper()
	invalid := want["invalid"] != nil
	hasError := false
	for _, s := range got["_ws.expert.severity"] {
		hasError = hasError || s == expertError
	}
	if invalid != hasError {
		t.Errorf("frame %d: rtypedump says a receiver drops something: %v; dissector expert error: %v", n, invalid, hasError)
	}
	for field, w := range want {
		if field == "invalid" || field == "skip-message-fields" {
			continue
		}
		if diff := cmp.Diff(normalize(w), normalize(got[field])); diff != "" {
			t.Errorf("frame %d %s (-rtypedump +dissector):\n%s", n, field, diff)
		}
	}
	if want["skip-message-fields"] != nil {
		return
	}
	// Fields rtypedump has none of must be absent from the dissector too.
	for _, field := range tsharkFields[2:] {
		if _, ok := want[field]; !ok && len(got[field]) > 0 {
			t.Errorf("frame %d: dissector has %s = %v, rtypedump has none", n, field, got[field])
		}
	}
}

// normalize makes numbers comparable whatever their base or precision, and
// booleans whatever their spelling.
func normalize(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		switch strings.ToLower(s) {
		case "true":
			s = "1"
		case "false":
			s = "0"
		}
		if u, err := strconv.ParseUint(s, 0, 64); err == nil {
			s = strconv.FormatUint(u, 10)
		} else if f, err := strconv.ParseFloat(s, 64); err == nil {
			s = strconv.FormatFloat(f, 'g', 12, 64)
		}
		out[i] = s
	}
	return out
}

// expectedFields turns rtypedump's JSON into dissector field values.
func expectedFields(t *testing.T, stdout string) map[int]frameFields {
	t.Helper()
	out := map[int]frameFields{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
		n, _ := d["n"].(json.Number).Int64()
		ff := frameFields{}
		add := func(field string, v any) { ff[field] = append(ff[field], fmt.Sprint(v)) }
		add("rtype.kind", d["kind"])
		add("rtype.valid", d["valid"])
		if d["valid"] == false {
			ff["invalid"] = []string{"1"}
		}
		if d["kind"] == "handshake" && d["valid"] == true {
			add("rtype.handshake.type", map[any]int{"Hello": 1, "Welcome": 2, "Rejected": 3}[d["type"]])
			if id, ok := d["connectionId"]; ok {
				add("rtype.handshake.connection_id", id)
			}
		}
		if d["kind"] == "packet" {
			if id, ok := d["connectionId"]; ok {
				add("rtype.header.connection_id", id)
				add("rtype.header.sequence", d["sequence"])
				add("rtype.header.ack", d["ack"])
				add("rtype.header.ack_bits", d["ackBits"])
			}
		}
		if d["kind"] == "handshake" && d["valid"] == false {
			// The dissector shows the handshake header fields that came,
			// rtypedump only the error.
			ff["skip-message-fields"] = []string{"1"}
		}
		msgs, _ := d["messages"].([]any)
		for _, mv := range msgs {
			m := mv.(map[string]any)
			add("rtype.msg.type", m["typeId"])
			add("rtype.msg.size", m["size"])
			add("rtype.msg.valid", m["valid"])
			if m["valid"] == false {
				// The dissector shows what fields it could of a message
				// that breaks its rules; rtypedump shows its payload.
				ff["invalid"] = []string{"1"}
				ff["skip-message-fields"] = []string{"1"}
				continue
			}
			name, _ := m["type"].(string)
			for key, field := range messageFields[name] {
				v, ok := m[key]
				if !ok {
					continue
				}
				if key == "actions" {
					var bits uint64
					for _, a := range v.([]any) {
						bits |= actionBits[a.(string)]
					}
					v = bits
				}
				add(field, v)
			}
			if states, ok := m["states"].([]any); ok {
				for _, sv := range states {
					s := sv.(map[string]any)
					for key, field := range stateFields {
						add(field, s[key])
					}
				}
			}
		}
		out[int(n)] = ff
	}
	return out
}

// joined is the value of field in ff as tshark -T fields prints it: its
// occurrences joined with commas.
func joined(ff frameFields, field string) string { return strings.Join(ff[field], ",") }

// dissect returns the fields of each frame of file as the dissector shows
// them in two passes (-2), the server on port. Errors raised inside the
// dissector, which fields hide, fail the test: tshark exits 0 on them. One
// tshark run, a quarter of a CPU second, serves every test that reads the
// same capture, and gives the fields and the whole tree (PDML) at once.
func dissect(t *testing.T, tshark, file string, port uint16) map[int]frameFields {
	t.Helper()
	key := fmt.Sprintf("%s:%d", file, port)
	dissections.mu.Lock()
	e := dissections.m[key]
	if e == nil {
		e = &dissection{}
		dissections.m[key] = e
	}
	dissections.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.frames == nil {
		pdml := runTshark(t, tshark, []string{"-X", "lua_script:" + dissector, "-o", fmt.Sprintf("rtype.port:%d", port),
			"-2", "-r", file, "-T", "pdml"})
		e.frames, e.broken = readPDML(t, pdml)
	}
	for _, b := range e.broken {
		t.Errorf("tshark's tree of %s shows %s", file, b)
	}
	return e.frames
}

// dissection is one capture's, made once.
type dissection struct {
	mu     sync.Mutex
	frames map[int]frameFields
	broken []string // where the tree shows the dissector failing
}

var dissections = struct {
	mu sync.Mutex
	m  map[string]*dissection
}{m: map[string]*dissection{}}

// treeFaults are what the tree shows where the dissector failed.
var treeFaults = []string{"Lua Error", "Malformed Packet", "Dissector bug"}

// readPDML reads tshark's PDML: each field's value, as -T fields prints
// it (a field without one, such as an expert flag, as "1"), by frame; and
// every item of the tree tshark -V prints whose text holds one of
// treeFaults.
func readPDML(t *testing.T, pdml string) (map[int]frameFields, []string) {
	t.Helper()
	frames := map[int]frameFields{}
	var ff frameFields
	var broken []string
	dec := xml.NewDecoder(strings.NewReader(pdml))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("tshark's PDML: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var name, show, showname string
		hidden := false
		for _, a := range el.Attr {
			switch a.Name.Local {
			case "name":
				name = a.Value
			case "show":
				show = a.Value
			case "showname":
				showname = a.Value
			case "hide":
				hidden = a.Value == "yes"
			}
		}
		for _, bad := range treeFaults {
			// Hidden items, which tshark -V does not print, flag
			// rtypedump's drops too.
			if !hidden && (strings.Contains(showname, bad) || strings.Contains(show, bad)) {
				broken = append(broken, fmt.Sprintf("%q in frame %s: %s %s", bad, ff["frame.number"], showname, show))
			}
		}
		switch {
		case el.Name.Local == "packet":
			ff = frameFields{}
		case el.Name.Local == "field" && name == "frame.number":
			n, err := strconv.Atoi(show)
			if err != nil {
				t.Fatalf("frame number %q", show)
			}
			frames[n] = ff
			ff[name] = append(ff[name], show)
		case el.Name.Local == "field" && name != "" && ff != nil:
			if show == "" {
				show = "1"
			}
			ff[name] = append(ff[name], show)
		}
	}
	return frames, broken
}

func runTshark(t *testing.T, tshark string, args []string) string {
	t.Helper()
	cmd := exec.Command(tshark, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tshark %v: %v\n%s", args, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "Lua:") || strings.Contains(line, "lua_script") {
			t.Errorf("tshark stderr: %s", line)
		}
	}
	return stdout.String()
}

func writeCaptureFile(t *testing.T, path string, list []captured) {
	t.Helper()
	var b bytes.Buffer
	if err := writePcap(&b, list); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hexCapture puts every datagram of the committed hex files on the wire of a
// capture with the server on port: the handshake lines each from a client
// of their own, then a connection whose packets are the framing and message
// lines.
func hexCapture(t *testing.T, port uint16) []captured {
	t.Helper()
	srv := netip.AddrPortFrom(netip.MustParseAddr("10.1.0.1"), port)
	var list []captured
	at := func() time.Time { return captureEpoch.Add(time.Duration(len(list)) * time.Millisecond) }
	for i, d := range hexDatagrams(t, "testdata/handshake.hex") {
		cli := netip.AddrPortFrom(netip.MustParseAddr("10.1.0.2"), uint16(30000+i))
		list = append(list, captured{time: at(), src: cli, dst: srv, data: d})
		// The same bytes from the server side: a Welcome among them opens
		// that client's connection, and the next datagram is a packet.
		list = append(list, captured{time: at(), src: srv, dst: cli, data: d})
		list = append(list, captured{time: at(), src: cli, dst: srv, data: d})
	}
	cli := netip.AddrPortFrom(netip.MustParseAddr("10.1.0.3"), 40000)
	list = append(list, captured{time: at(), src: cli, dst: srv, data: rtype.AppendHello(nil)})
	list = append(list, captured{time: at(), src: srv, dst: cli, data: rtype.AppendWelcome(nil, 1)})
	// From the server, so that a Disconnect among them closes nothing
	// (§7.3), each with a sequence of its own, so that none is a duplicate
	// (§5.2).
	var seq uint32
	for _, name := range []string{"testdata/framing.hex", "testdata/messages.hex"} {
		for _, d := range hexDatagrams(t, name) {
			if len(d) >= 8 {
				seq++
				binary.BigEndian.PutUint32(d[4:8], seq)
			}
			list = append(list, captured{time: at(), src: srv, dst: cli, data: d})
		}
	}
	// An empty datagram, as a packet (§5.4) and as a handshake datagram
	// (§4.1): too short for either, dropped.
	list = append(list, captured{time: at(), src: cli, dst: srv, data: []byte{}})
	fresh := netip.AddrPortFrom(netip.MustParseAddr("10.1.0.4"), 40001)
	list = append(list, captured{time: at(), src: fresh, dst: srv, data: []byte{}})
	return list
}

func hexDatagrams(t testing.TB, name string) [][]byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := newHexReader(f)
	var out [][]byte
	for {
		d, _, err := r.next()
		if err != nil {
			return out
		}
		out = append(out, d)
	}
}

// The dissector remembers rtype.max_clients addresses and, past them,
// forgets the one least recently welcomed or heard from, connected ones
// last, as wiredump.Sides does (TestSidesForgetLeastRecent): a datagram of a
// forgotten address is a handshake datagram again (§3).
func TestDissectorForgetsLeastRecent(t *testing.T) {
	tshark := lookTshark(t)
	srv, a, b, c := addrPort("10.5.0.1:4242"), addrPort("10.5.0.2:40000"), addrPort("10.5.0.3:40001"), addrPort("10.5.0.4:40002")
	welcome := func(id uint32) []byte { return rtype.AppendWelcome(nil, id) }
	ping := rtype.Ping{Timestamp: 1}
	frames := []struct {
		captured
		frameVerdict
	}{
		{captured{src: srv, dst: a, data: welcome(1)}, frameVerdict{"handshake", ""}},
		{captured{src: a, dst: srv, data: testPacket(t, 1, 1, ping)}, frameVerdict{"packet", ""}},
		{captured{src: srv, dst: b, data: welcome(2)}, frameVerdict{"handshake", ""}},
		{captured{src: srv, dst: c, data: welcome(3)}, frameVerdict{"handshake", ""}},
		{captured{src: b, dst: srv, data: testPacket(t, 2, 1, ping)}, frameVerdict{"handshake", "bad magic"}},
		{captured{src: a, dst: srv, data: testPacket(t, 1, 2, ping)}, frameVerdict{"packet", ""}},
		{captured{src: srv, dst: b, data: welcome(4)}, frameVerdict{"handshake", ""}},
		{captured{src: c, dst: srv, data: testPacket(t, 3, 1, ping)}, frameVerdict{"handshake", "bad magic"}},
		{captured{src: srv, dst: c, data: welcome(5)}, frameVerdict{"handshake", ""}},
		{captured{src: b, dst: srv, data: testPacket(t, 4, 1, ping)}, frameVerdict{"handshake", "bad magic"}},
		{captured{src: a, dst: srv, data: testPacket(t, 1, 3, ping)}, frameVerdict{"packet", ""}},
		{captured{src: c, dst: srv, data: testPacket(t, 5, 1, ping)}, frameVerdict{"packet", ""}},
	}
	list := make([]captured, len(frames))
	for i := range frames {
		list[i] = frames[i].captured
		list[i].time = captureEpoch.Add(time.Duration(i) * time.Millisecond)
	}
	file := filepath.Join(t.TempDir(), "forget.pcap")
	writeCaptureFile(t, file, list)
	out := runTshark(t, tshark, []string{"-X", "lua_script:" + dissector, "-o", "rtype.max_clients:2", "-2", "-r", file,
		"-T", "fields", "-E", "separator=/t", "-e", "frame.number", "-e", "rtype.kind", "-e", "rtype.error"})
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) != len(frames) {
		t.Fatalf("tshark printed %d frames, want %d", len(rows), len(frames))
	}
	for i, row := range rows {
		cols := strings.Split(row, "\t")
		w := frames[i].frameVerdict
		if len(cols) != 3 || cols[1] != w.kind || (w.err == "") != (cols[2] == "") || !strings.Contains(cols[2], w.err) {
			t.Errorf("frame %d: %q; want %s, error %q", i+1, row, w.kind, w.err)
		}
	}
}
