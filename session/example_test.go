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
