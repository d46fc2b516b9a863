// Command server is the smallest complete R-Type v1 server: a ship per
// player at its slot's spawn position (§10), moved every tick by the
// velocity of its last Input (§7.1). It has no missiles and no Bydos; the
// full game is examples/server.
//
//	go run ./examples/minimal/server [-addr :4242] [-log debug] [-trace DIR] [-pcap FILE]
package main

import (
	"context"
	"flag"
	"log"
	"net/netip"
	"os"
	"os/signal"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/host/hostcmd"
	"github.com/rtypeproto/rtype/session"
)

// step is how far a ship moves in one tick, in pixels: 300 per second at
// 60 ticks per second (§10).
const step = 300.0 / 60

type ship struct {
	id      uint32        // network id (§8.2)
	x, y    float64       // pixels (§9.1)
	actions rtype.Actions // the last Input accepted (§7.1)
}

// game is the world of one match: a ship per connected player.
type game struct {
	ships map[uint32]*ship // by connection id
}

var colors = [4]rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}

// tick reads the events and moves the ships; after each call, Server.Tick
// sends CreateEntity, DestroyEntity and Snapshots.
func (g *game) tick(s *session.Server, now time.Time) {
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined: // slot n spawns at x = 150, y = 150 + 100 n (§10)
			sh := &ship{x: 150, y: 150 + 100*float64(ev.Slot)}
			sh.id, _ = s.SpawnFor(ev.Conn, colors[ev.Slot%4], sh.x, sh.y, 0)
			g.ships[ev.Conn] = sh
		case session.EventInput: // the full state of the controls, not a change (§7.1)
			if sh, ok := g.ships[ev.Conn]; ok {
				sh.actions = ev.Input.Actions
			}
		case session.EventPlayerLeft: // its ship is already destroyed, reason 3 (§7.3)
			delete(g.ships, ev.Conn)
		}
	}
	for _, sh := range g.ships {
		vx, vy := sh.actions.Velocity(step)
		sh.x, sh.y = sh.x+vx, sh.y+vy
		_ = s.Move(sh.id, sh.x, sh.y, 0)
	}
}

func main() {
	var o hostcmd.Options // -addr, -matches, -log, -trace, -pcap
	o.Register(flag.CommandLine)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := o.Serve(ctx, host.Config{New: newMatch}); err != nil {
		log.Fatal(err)
	}
}

// newMatch is a new game as the host's match i: the default session
// server, the game's tick run before each of its Ticks.
func newMatch(int, netip.AddrPort) host.Match {
	g := &game{ships: map[uint32]*ship{}}
	return host.Match{Tick: g.tick}
}
