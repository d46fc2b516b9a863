// Command client is the smallest complete R-Type v1 client: it connects
// (§4), keeps the world the server describes (§8) and a smooth view of it
// to draw each frame, flies right with one Input per frame, including
// frames where nothing is held (§7.1), fires now and then, and quits with
// Disconnect (§7.3). It exits 1 when it never got the world.
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

// player is what the client does: it logs the world's changes and flies.
type player struct {
	server  string
	view    *session.View // the world as a game draws it
	playing bool          // a world came (§8)
	frame   int
}

func newPlayer(server string) *player {
	return &player{server: server, view: session.NewView(session.ViewConfig{})}
}

// config gives the client the view to feed.
func (p *player) config() session.ClientConfig {
	return session.ClientConfig{View: p.view}
}

// play runs once per frame: read the events, send one Input. It returns
// false to quit, sending Disconnect (reason 1).
func (p *player) play(c *session.Client, now time.Time) bool {
	for ev := range c.Events() {
		switch ev.Kind {
		case session.EventConnected:
			log.Printf("connected to %s as %d", p.server, ev.Conn)
		case session.EventPlaying:
			p.playing = true
		case session.EventEntityCreated:
			log.Printf("%v %d at (%.0f, %.0f)", ev.Entity.Archetype, ev.Entity.ID, ev.Entity.X, ev.Entity.Y)
		case session.EventEntityDestroyed:
			log.Printf("entity %d destroyed: %v", ev.Entity.ID, ev.Destroy)
		}
	}
	for _, e := range p.view.At(now) {
		_ = e // a game draws e.Archetype at e.X, e.Y, turned by e.Rotation
	}
	if !c.State().Connected() {
		return true // Hello until Welcome (§4.2)
	}
	p.frame++
	var a rtype.Actions // nothing held: sent as 0x00 (§7.1)
	if p.frame%120 < 60 {
		a = rtype.ActionRight
	}
	if p.frame%60 == 0 {
		a |= rtype.ActionShoot // a missile fires when Shoot is released
	}
	_ = c.SendInput(a, now)
	return true
}

func main() {
	server := flag.String("server", "127.0.0.1:4242", "server UDP address")
	duration := flag.Duration("duration", 10*time.Second, "how long to play")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	p := newPlayer(*server)
	err := session.RunClient(ctx, *server, p.config(), session.RunOptions{}, p.play)
	switch {
	case err != nil:
		log.Fatalf("session ended: %v", err) // ErrRejected, ErrTimedOut or ErrSocket
	case !p.playing:
		log.Fatalf("no world from %s", *server)
	}
	s := p.view.Stats()
	log.Printf("quit: %d frames drawn, %v behind the server, %d snaps", s.Frames, s.Delay, s.Snaps)
}
