// Command server is the smallest complete R-Type v1 server: a ship per
// player at its slot's spawn position (§10), moved every tick by the
// velocity of its last Input (§7.1). It has no missiles and no Bydos; the
// full game is examples/server.
//
//	go run ./examples/minimal/server [-addr :4242]
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/rtypeproto/rtype"
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

func main() {
	addr := flag.String("addr", ":4242", "UDP address to listen on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	colors := []rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}
	ships := map[uint32]*ship{} // by connection id
	log.Printf("listening on udp %s", *addr)
	err := session.RunServer(ctx, *addr, session.ServerConfig{}, session.RunOptions{}, func(s *session.Server, now time.Time) {
		for ev := range s.Events() {
			switch ev.Kind {
			case session.EventPlayerJoined: // slot n spawns at x = 150, y = 150 + 100 n (§10)
				sh := &ship{x: 150, y: 150 + 100*float64(ev.Slot)}
				sh.id, _ = s.SpawnFor(ev.Conn, colors[ev.Slot%4], sh.x, sh.y, 0)
				ships[ev.Conn] = sh
			case session.EventInput: // the full state of the controls, not a change (§7.1)
				if sh, ok := ships[ev.Conn]; ok {
					sh.actions = ev.Input.Actions
				}
			case session.EventPlayerLeft: // its ship is already destroyed, reason 3 (§7.3)
				delete(ships, ev.Conn)
			}
		}
		for _, sh := range ships {
			vx, vy := sh.actions.Velocity(step)
			sh.x, sh.y = sh.x+vx, sh.y+vy
			_ = s.Move(sh.id, sh.x, sh.y, 0)
		}
	}) // after each call, Server.Tick sends CreateEntity, DestroyEntity and Snapshots
	if err != nil {
		log.Fatal(err)
	}
}
