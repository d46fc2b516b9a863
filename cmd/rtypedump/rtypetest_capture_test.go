package main

import (
	"encoding/json"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// A capture of an in-memory game (rtypetest) reads as a capture of real
// traffic: every datagram decodes, none invalid, the handshakes (§4) and
// the packets of both directions (§5) all there, loss and reordering in a
// lossy network notwithstanding.
func TestRtypetestCaptureDecodes(t *testing.T) {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	player := netip.MustParseAddrPort("10.0.0.2:50000")
	sim := rtypetest.NewSim(3)
	c := &rtypetest.Capture{}
	sim.Capture(c)
	srv := sim.NewServer(server, session.ServerConfig{})
	cli := sim.NewClient(player, server, session.ClientConfig{})
	p := netem.Params{Loss: 0.1, Delay: 20 * time.Millisecond, Jitter: 10 * time.Millisecond, Reorder: 0.05}
	_ = sim.Impair(player, server, p)
	_ = sim.Impair(server, player, p)
	for range 3 * 60 {
		sim.Advance(time.Second / 60)
		for ev := range srv.Events() {
			if ev.Kind == session.EventPlayerJoined {
				_, _ = srv.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 150, 150, 0)
			}
		}
		srv.Tick(sim.Now())
		cli.Update(sim.Now())
		_ = cli.SendInput(rtype.ActionUp, sim.Now())
	}
	cli.Close(sim.Now())
	path := filepath.Join(t.TempDir(), "game.pcap")
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	kept, _ := c.Len()
	stdout, stderr, code := runTool(t, "", "-json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != kept {
		t.Errorf("%d lines for %d datagrams captured", len(lines), kept)
	}
	kinds := map[string]int{}
	for i, line := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if v["valid"] != true {
			t.Errorf("line %d is not a valid datagram:\n%s", i+1, line)
		}
		to := "to the server"
		if str(v["src"]) == server.String() {
			to = "to the client"
		}
		kinds[str(v["kind"])+" "+to]++
	}
	t.Logf("%d datagrams: %v", kept, kinds)
	if len(kinds) < 3 {
		t.Errorf("kinds of datagrams seen: %v; want handshakes and packets both ways", kinds)
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
