package session_test

import (
	"context"
	"log"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// A bot: connect, print what the server creates and destroys, fly right
// and fire once a second.
func ExampleRunClient() {
	ctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	err := session.RunClient(ctx, "127.0.0.1:4242", session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
		for ev := range c.Events() {
			switch ev.Kind {
			case session.EventConnected:
				log.Printf("connected as %d", ev.Conn)
			case session.EventEntityCreated:
				log.Printf("%v %d at (%.0f, %.0f)", ev.Entity.Archetype, ev.Entity.ID, ev.Entity.X, ev.Entity.Y)
			case session.EventEntityDestroyed:
				log.Printf("entity %d gone: %v", ev.Entity.ID, ev.Destroy)
			}
		}
		actions := rtype.ActionRight // one Input per frame (§7.1), even when idle
		if now.UnixMilli()%1000 < 100 {
			actions |= rtype.ActionShoot // a missile fires when Shoot is released
		}
		c.SendInput(actions, now) // ErrNotConnected until Welcome: harmless
		return true               // false sends Disconnect and returns
	})
	log.Println("session ended:", err) // nil, ErrRejected, ErrTimedOut or ErrSocket
}

// A server: a ship per player at its §10 spawn position, moved by its
// Input, and a Bydos every two seconds.
func ExampleRunServer() {
	colors := []rtype.Archetype{rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed}
	type ship struct {
		id   uint32
		x, y float64
	}
	ships := map[uint32]*ship{} // by connection id
	err := session.RunServer(context.Background(), ":4242", session.ServerConfig{}, session.RunOptions{}, func(s *session.Server, now time.Time) {
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
	}) // after each call, Server.Tick sends CreateEntity, DestroyEntity and Snapshots
	log.Fatal(err)
}

// Hooks on a binding: a bot that counts the handshake datagrams (§3, §4)
// and the bytes each way, and loses one datagram in ten it receives, as a
// lossy network would, without a loop of its own.
func ExampleHooks() {
	var handshakes, in, out int
	n := 0
	hooks := &session.Hooks{
		OnReceive: func(_ netip.AddrPort, b []byte) bool {
			if _, _, err := rtype.ParseHandshake(b); err == nil {
				handshakes++
			}
			in += len(b)
			n++
			return n%10 != 0
		},
		OnSend: func(_ netip.AddrPort, b []byte) bool { out += len(b); return true },
	}
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	err := session.RunClient(ctx, "127.0.0.1:4242", session.ClientConfig{}, session.RunOptions{Hooks: hooks}, func(c *session.Client, now time.Time) bool {
		_ = c.SendInput(0, now)
		return true
	})
	log.Printf("%v: %d handshake datagrams, %d bytes in, %d out", err, handshakes, in, out)
}
