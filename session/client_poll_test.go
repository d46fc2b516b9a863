package session_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// pollUntil runs frames of an engine's loop on p, 60 a second in the
// bubble's virtual time, until done says so or limit passes; it returns
// the time taken and Poll's last error.
func pollUntil(p *session.PollClient, view *session.View, limit time.Duration, done func(c *session.Client, drawn []session.Entity) bool) (time.Duration, error) {
	start := time.Now()
	for time.Since(start) < limit {
		time.Sleep(frame)
		now := time.Now()
		if err := p.Poll(now); err != nil {
			return time.Since(start), err
		}
		c := p.Client()
		for range c.Events() {
		}
		_ = c.SendInput(rtype.ActionRight, now)
		var drawn []session.Entity
		if view != nil {
			drawn = view.At(now)
		}
		if done(c, drawn) {
			return time.Since(start), nil
		}
	}
	return limit, nil
}

// A PollClient plays in a loop it does not own: it connects, learns its
// ship, which its View draws; its socket closed under it, Poll says so.
// Another from the same address connects only once the server's
// inactivity timeout (10 s, §13.3) closed the old connection, whose
// packets its Hellos count as, too short (§3, §5.4); one from a new port
// connects at once, and its Close sends Disconnect (§7.3).
func TestPollClient_PlaysAndReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := rtypetest.NewNetwork(1)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		g := newFourPlayers()
		go func() { _ = hostOfOne(ctx, listen(t, n, serverAddr), host.Match{Tick: g.tick}, host.Config{}) }()

		a := netAddr(1)
		conn := listen(t, n, a)
		view := session.NewView(session.ViewConfig{})
		p := session.NewPollClient(conn, serverAddr, session.ClientConfig{View: view}, session.RunOptions{})
		_, err := pollUntil(p, view, 5*time.Second, func(c *session.Client, drawn []session.Entity) bool {
			id, ok := c.OwnShip()
			return ok && drawnHas(drawn, id)
		})
		if id, ok := p.Client().OwnShip(); err != nil || !ok {
			t.Fatalf("own ship %d, %v, error %v; want the ship drawn within 5 s", id, ok, err)
		}
		conn.Close() // the game dies without a Disconnect
		synctest.Wait()
		if err := p.Poll(time.Now()); !errors.Is(err, session.ErrSocket) {
			t.Errorf("Poll after the socket closed: %v, want ErrSocket", err)
		}
		p.Close(time.Now())

		again := session.NewPollClient(listen(t, n, a), serverAddr, session.ClientConfig{GiveUp: session.Off}, session.RunOptions{})
		took, err := pollUntil(again, nil, 15*time.Second, connected)
		if err != nil || took < 8*time.Second || took > 12*time.Second {
			t.Errorf("the same port connected after %v (error %v), want about 10 s", took, err)
		}
		again.Close(time.Now())

		fresh := session.NewPollClient(listen(t, n, netAddr(2)), serverAddr, session.ClientConfig{}, session.RunOptions{})
		took, err = pollUntil(fresh, nil, 5*time.Second, connected)
		if err != nil || took > time.Second {
			t.Errorf("a new port connected after %v (error %v), want at once", took, err)
		}
		left := g.left.Load()
		fresh.Close(time.Now())
		if err := fresh.Poll(time.Now()); !errors.Is(err, session.ErrNotConnected) {
			t.Errorf("Poll after Close: %v, want ErrNotConnected", err)
		}
		for deadline := time.Now().Add(time.Second); g.left.Load() == left && time.Now().Before(deadline); {
			time.Sleep(frame)
		}
		if g.left.Load() == left {
			t.Error("the server saw no Disconnect after Close")
		}
	})
}

func connected(c *session.Client, _ []session.Entity) bool { return c.State().Connected() }

func drawnHas(drawn []session.Entity, id uint32) bool {
	for _, e := range drawn {
		if e.ID == id {
			return true
		}
	}
	return false
}
