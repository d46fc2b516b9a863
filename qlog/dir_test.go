package qlog_test

import (
	"bytes"
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

// readTrace checks the fixed format of the trace at path (docs/trace.md)
// and returns its event records.
func readTrace(t *testing.T, path string, vantage string) []record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[0] != 0x1E || b[len(b)-1] != '\n' {
		t.Fatalf("%s: not records of RS, JSON, LF", path)
	}
	parts := bytes.Split(b[1:len(b)-1], []byte("\n\x1e"))
	var head struct {
		FileSchema          string `json:"file_schema"`
		SerializationFormat string `json:"serialization_format"`
		Trace               struct {
			VantagePoint struct{ Type string } `json:"vantage_point"`
			CommonFields struct {
				ReferenceTime struct{ Epoch string } `json:"reference_time"`
			} `json:"common_fields"`
		}
	}
	if err := json.Unmarshal(parts[0], &head); err != nil {
		t.Fatalf("%s: first record: %v", path, err)
	}
	if head.FileSchema != "urn:ietf:params:qlog:file:sequential" || head.SerializationFormat != "application/qlog+json-seq" ||
		head.Trace.VantagePoint.Type != vantage || head.Trace.CommonFields.ReferenceTime.Epoch == "" {
		t.Errorf("%s: first record %s", path, parts[0])
	}
	var recs []record
	for i, p := range parts[1:] {
		var r record
		if err := json.Unmarshal(p, &r); err != nil {
			t.Fatalf("%s: record %d: %v: %s", path, i+2, err, p)
		}
		if len(recs) > 0 && r.Time < recs[len(recs)-1].Time {
			t.Errorf("%s: record %d at %v ms, after %v ms", path, i+2, r.Time, recs[len(recs)-1].Time)
		}
		recs = append(recs, r)
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
// format, what one side sent the other received but the lost, and the
// client goes connecting → waiting → playing → closed.
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
