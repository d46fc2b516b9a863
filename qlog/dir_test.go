package qlog_test

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/qlog"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

var (
	serverAddr = netip.MustParseAddrPort("192.0.2.1:4242")
	clientAddr = netip.MustParseAddrPort("203.0.113.9:50000")
)

// record is one event record of a trace.
type record struct {
	Time float64 `json:"time"`
	Name string  `json:"name"`
	Data struct {
		Header *struct {
			ConnectionID uint32 `json:"connection_id"`
			Sequence     uint32 `json:"sequence"`
			Ack          uint32 `json:"ack"`
			AckBits      uint32 `json:"ack_bits"`
		} `json:"header"`
		Handshake *struct {
			Type         string `json:"type"`
			ConnectionID uint32 `json:"connection_id"`
		} `json:"handshake"`
		Messages []map[string]any `json:"messages"`
		Length   *int             `json:"length"`
		New      string           `json:"new"`
		Reason   string           `json:"reason"`
		Latest   *float64         `json:"latest_rtt"`
	} `json:"data"`
}

// readTrace reads the trace at path with qlog.ReadFile, which checks the
// fixed format (docs/trace.md), checks its vantage point and returns its
// event records decoded.
func readTrace(t *testing.T, path string, vantage string) []record {
	t.Helper()
	h, evs, err := qlog.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(h.Vantage) != vantage || h.Reference.IsZero() || h.Group == "" {
		t.Errorf("%s: header %+v, want vantage %s, a reference time and the peer", path, h, vantage)
	}
	recs := make([]record, len(evs))
	for i, e := range evs {
		recs[i].Time, recs[i].Name = e.Time, e.Name
		if err := json.Unmarshal(e.Data, &recs[i].Data); err != nil {
			t.Fatalf("%s: event %d data: %v", path, i+1, err)
		}
	}
	return recs
}

func sequences(recs []record, name string) []uint32 {
	var s []uint32
	for _, r := range recs {
		if r.Name == name && r.Data.Header != nil {
			s = append(s, r.Data.Header.Sequence)
		}
	}
	return s
}

// A game of 6 s at 10% loss traced both ways: each file has the fixed
// format, what one side sent the other received but the lost, the client
// goes connecting → waiting → playing → closed, and the server's
// connection playing → closed.
func TestDir_TracesBothSides(t *testing.T) {
	dir := t.TempDir()
	sd, err := qlog.NewDir(dir, qlog.Server)
	if err != nil {
		t.Fatal(err)
	}
	cd, err := qlog.NewDir(dir, qlog.Client)
	if err != nil {
		t.Fatal(err)
	}
	sim := rtypetest.NewSim(1)
	s := sim.NewServer(serverAddr, session.ServerConfig{Tracer: sd})
	c := sim.NewClient(clientAddr, serverAddr, session.ClientConfig{Tracer: cd})
	link := netem.Params{Loss: 0.1, Delay: 20 * time.Millisecond}
	_ = sim.Impair(serverAddr, clientAddr, link)
	_ = sim.Impair(clientAddr, serverAddr, link)
	for range 6 * 60 {
		sim.Advance(time.Second / 60)
		for ev := range s.Events() {
			if ev.Kind == session.EventPlayerJoined {
				_, _ = s.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 100, 100, 0)
			}
		}
		s.Tick(sim.Now())
		c.Update(sim.Now())
		if c.State().Connected() {
			_ = c.SendInput(rtype.ActionUp, sim.Now())
		}
	}
	c.Close(sim.Now())
	sim.Advance(time.Second)
	if err := sd.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cd.Close(); err != nil {
		t.Fatal(err)
	}
	srv := readTrace(t, filepath.Join(dir, qlog.Name(qlog.Server, clientAddr)), "server")
	cli := readTrace(t, filepath.Join(dir, qlog.Name(qlog.Client, serverAddr)), "client")
	var states []string
	lost := 0
	for _, r := range cli {
		switch r.Name {
		case "rtype:connection_state_updated":
			states = append(states, r.Data.New)
		case "rtype:packet_lost":
			lost++
		}
	}
	if want := []string{"connecting", "waiting", "playing", "closed"}; !slices.Equal(states, want) {
		t.Errorf("client states %v, want %v", states, want)
	}
	var srvStates []string
	for _, r := range srv {
		if r.Name == "rtype:connection_state_updated" {
			srvStates = append(srvStates, r.Data.New)
		}
	}
	if want := []string{"playing", "closed"}; !slices.Equal(srvStates, want) {
		t.Errorf("server states %v, want %v", srvStates, want)
	}
	sent, got := sequences(srv, "rtype:packet_sent"), sequences(cli, "rtype:packet_received")
	for _, seq := range got {
		if !slices.Contains(sent, seq) {
			t.Errorf("client received sequence %d, which the server never sent", seq)
		}
	}
	if ratio := float64(len(got)) / float64(len(sent)); len(sent) < 110 || ratio < 0.8 || ratio > 0.97 || lost == 0 || uint64(lost) != c.Stats().PacketsLost {
		t.Errorf("server sent %d packets, client received %d (%.0f%%), %d traced lost (%d counted): want ~90%% at 10%% loss", len(sent), len(got), 100*ratio, lost, c.Stats().PacketsLost)
	}
	var hello, snapshot bool
	for _, r := range cli {
		hello = hello || r.Name == "rtype:packet_sent" && r.Data.Handshake != nil && r.Data.Handshake.Type == "hello"
		for _, m := range r.Data.Messages {
			snapshot = snapshot || m["type"] == "Snapshot"
		}
	}
	if !hello || !snapshot {
		t.Errorf("client trace: a Hello sent %v, a Snapshot received %v; want both", hello, snapshot)
	}
}

// A directory that cannot be written fails NewDir, before any event.
func TestNewDir_Unwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := qlog.NewDir(filepath.Join(file, "traces"), qlog.Server); err == nil {
		t.Error("NewDir under a regular file: no error")
	}
}

// A vantage point named with characters JSON escapes still gives a header
// that reads back as written.
func TestDir_VantageQuoted(t *testing.T) {
	dir := t.TempDir()
	v := qlog.Vantage("probe \"a\"\x01b")
	d, err := qlog.NewDir(dir, v)
	if err != nil {
		t.Fatal(err)
	}
	d.Trace(&session.TraceEvent{Kind: session.TracePacketLost, Peer: serverAddr, Time: time.Unix(0, 0), Sequence: 3})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	h, evs, err := qlog.ReadFile(filepath.Join(dir, qlog.Name(v, serverAddr)))
	if err != nil || h.Vantage != v || len(evs) != 1 {
		t.Errorf("read back: vantage %q, %d events, %v; want %q, 1", h.Vantage, len(evs), err, v)
	}
}
