package host_test

import (
	"context"
	"log"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// A server of one match: a ship per player at its §10 spawn position, moved by its
// Input, and a Bydos every two seconds.
func Example() {
	colors := []rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}
	type ship struct {
		id   uint32
		x, y float64
	}
	ships := map[uint32]*ship{} // by connection id
	tick := func(s *session.Server, now time.Time) {
		for ev := range s.Events() {
			switch ev.Kind {
			case session.EventPlayerJoined: // spawn position of slot n (§10)
				sh := &ship{x: 150, y: 150 + 100*float64(ev.Slot)}
				sh.id, _ = s.SpawnFor(ev.Conn, colors[ev.Slot%4], sh.x, sh.y, 0)
				ships[ev.Conn] = sh
			case session.EventPlayerLeft: // its ship is already destroyed (reason 3)
				delete(ships, ev.Conn)
			case session.EventInput:
				sh := ships[ev.Conn]
				vx, vy := ev.Input.Actions.Velocity(4)
				sh.x, sh.y = sh.x+vx, sh.y+vy
				s.Move(sh.id, sh.x, sh.y, 0)
			}
		}
		if s.ServerTick()%120 == 0 {
			s.Spawn(rtype.ArchetypeEnemyBidos, 1900, 300, 0)
		}
	} // after each call, Server.Tick sends CreateEntity, DestroyEntity and Snapshots
	h, err := host.Listen(host.Config{Addr: ":4242", New: func(int, netip.AddrPort) host.Match {
		return host.Match{Tick: tick} // one match, the default session server
	}})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(h.Run(context.Background())) // until the context is done
}
