package main

import (
	"bytes"
	"io"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/session"
)

// §7.3, §13.3: the demo judges a bot by how the server saw its session end
// as well as by what the bot saw: a session the server closed for any
// reason but the bot's Disconnect or the server's own stop fails the bot,
// even if the bot, still within its ServerTimeout, never noticed.
func TestSpec13_3_DemoFailsServerClosedSession(t *testing.T) {
	tests := []struct {
		name   string
		end    func(s *session.Server, c *session.Client, now time.Time) time.Time
		code   int
		status string
	}{
		{"Disconnect", func(_ *session.Server, c *session.Client, now time.Time) time.Time {
			c.Close(now)
			return now
		}, 0, "ok"},
		{"Shutdown", func(s *session.Server, _ *session.Client, now time.Time) time.Time {
			s.Close(now)
			return now
		}, 0, "ok"},
		{"Kicked", func(s *session.Server, c *session.Client, now time.Time) time.Time {
			if err := s.Kick(c.ConnectionID(), now); err != nil {
				t.Fatal(err)
			}
			return now
		}, 1, "closed-kicked"},
		{"Timeout", func(_ *session.Server, _ *session.Client, now time.Time) time.Time {
			return now.Add(session.DefaultTimeout + time.Second)
		}, 1, "closed-timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, id := playAndEnd(t, tc.end)
			results := []bot.Result{{Name: "bot-1", Connected: true, Playing: true, ConnectionID: id, Resends: -1}}
			settle(results, g)
			var out bytes.Buffer
			code := report(&out, io.Discard, results, time.Second, 0)
			if code != tc.code {
				t.Errorf("exit code %d, want %d:\n%s", code, tc.code, out.String())
			}
			line := "" // the first table's, which ends with the status
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.Contains(l, "bot-1") && line == "" {
					line = strings.TrimSpace(l)
				}
			}
			if !strings.HasSuffix(line, " "+tc.status) {
				t.Errorf("table line %q, want status %q", line, tc.status)
			}
			if results[0].Resends < 0 {
				t.Errorf("the server's counters were not read")
			}
		})
	}
}

// playAndEnd connects one client to a game server over an in-memory
// network, plays a second, lets end close the session, and runs the game
// until it has read the departure.
func playAndEnd(t *testing.T, end func(*session.Server, *session.Client, time.Time) time.Time) (*gameserver.Server, uint32) {
	t.Helper()
	type dgram struct {
		to, from netip.AddrPort
		b        []byte
	}
	var queue []dgram
	srvAddr := netip.MustParseAddrPort("10.0.0.1:4242")
	cliAddr := netip.MustParseAddrPort("10.0.0.2:5000")
	g := gameserver.New(gameserver.Config{})
	srv := session.NewServer(g.SessionConfig(), func(to netip.AddrPort, b []byte) {
		queue = append(queue, dgram{to, srvAddr, append([]byte(nil), b...)})
	})
	c := session.NewClient(srvAddr, session.ClientConfig{}, func(to netip.AddrPort, b []byte) {
		queue = append(queue, dgram{to, cliAddr, append([]byte(nil), b...)})
	})
	now := time.Unix(1000, 0)
	deliver := func() {
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			if d.to == srvAddr {
				srv.Receive(d.b, d.from, now)
			} else if d.to == cliAddr {
				c.Receive(d.b, d.from, now)
			}
		}
	}
	step := func(client bool) {
		if client {
			c.Update(now)
			if c.State().Connected() {
				if err := c.SendInput(0, now); err != nil {
					t.Fatal(err)
				}
			}
		}
		deliver()
		g.Step(srv, now)
		srv.Tick(now)
		deliver()
		now = now.Add(time.Second / 60)
	}
	for range 60 {
		step(true)
	}
	if !c.State().Connected() || srv.NumPlayers() != 1 {
		t.Fatalf("client %v, %d players", c.State(), srv.NumPlayers())
	}
	id := c.ConnectionID()
	now = end(srv, c, now)
	deliver()
	step(false)
	step(false)
	if srv.NumPlayers() != 0 {
		t.Fatal("the session did not end")
	}
	return g, id
}
