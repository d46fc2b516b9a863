// Command client is the smallest complete R-Type v1 client: it connects
// (§4), keeps the world the server describes (§8), flies right with one
// Input per frame, including frames where nothing is held (§7.1), fires now
// and then, and quits with Disconnect (§7.3). It exits 1 when it never got
// the world.
//
//	go run ./examples/minimal/client [-server 127.0.0.1:4242] [-duration 10s]
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

func main() {
	server := flag.String("server", "127.0.0.1:4242", "server UDP address")
	duration := flag.Duration("duration", 10*time.Second, "how long to play")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	playing, frame := false, 0
	err := session.RunClient(ctx, *server, session.ClientConfig{}, session.RunOptions{}, func(c *session.Client, now time.Time) bool {
		for ev := range c.Events() {
			switch ev.Kind {
			case session.EventConnected:
				log.Printf("connected to %s as %d", *server, ev.Conn)
			case session.EventPlaying:
				playing = true
			case session.EventEntityCreated:
				log.Printf("%v %d at (%.0f, %.0f)", ev.Entity.Archetype, ev.Entity.ID, ev.Entity.X, ev.Entity.Y)
			case session.EventEntityDestroyed:
				log.Printf("entity %d destroyed: %v", ev.Entity.ID, ev.Destroy)
			}
		}
		if !c.State().Connected() {
			return true // Hello until Welcome (§4.2)
		}
		frame++
		var a rtype.Actions // nothing held: sent as 0x00 (§7.1)
		if frame%120 < 60 {
			a = rtype.ActionRight
		}
		if frame%60 == 0 {
			a |= rtype.ActionShoot // a missile fires when Shoot is released
		}
		_ = c.SendInput(a, now)
		return true // false sends Disconnect (reason 1) and returns
	})
	switch {
	case err != nil:
		log.Fatalf("session ended: %v", err) // ErrRejected, ErrTimedOut or ErrSocket
	case !playing:
		log.Fatalf("no world from %s", *server)
	}
	log.Print("quit")
}
