package planted

import (
	"context"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// seen is what a session.Client saw of a server.
type seen struct {
	connected, snapshots, pongs int
	ships, missiles             int
	err                         error
}

// playSessions plays n session.Clients at once against serverAddr of nw
// for d, each holding Right and tapping Shoot, and returns what each saw.
func playSessions(t *testing.T, nw *rtypetest.Network, n int, d time.Duration) []seen {
	t.Helper()
	res := make([]seen, n)
	var wg sync.WaitGroup
	for i := range res {
		conn, err := nw.Listen(netip.AddrPortFrom(clientIP, 0))
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { res[i] = playSession(conn, d) })
	}
	wg.Wait()
	return res
}

func playSession(conn *rtypetest.Conn, d time.Duration) seen {
	var s seen
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	frame := 0
	s.err = session.RunClientConn(ctx, conn, serverAddr, session.ClientConfig{}, session.RunOptions{},
		func(c *session.Client, now time.Time) bool {
			for e := range c.Events() {
				s.count(e)
			}
			if c.State().Connected() {
				frame++
				actions := rtype.ActionRight
				if frame%20 < 10 {
					actions |= rtype.ActionShoot
				}
				c.SendInput(actions, now)
			}
			return true
		})
	return s
}

func (s *seen) count(e session.ClientEvent) {
	switch e.Kind {
	case session.EventConnected:
		s.connected++
	case session.EventSnapshot:
		s.snapshots++
	case session.EventPong:
		s.pongs++
	case session.EventEntityCreated:
		if e.Entity.Archetype == archBullet {
			s.missiles++
		} else {
			s.ships++
		}
	}
}

// checkPlay fails t unless every client played: welcomed, two ships (its
// own and the other's), missiles, Snapshots at 20 a second (§8.1) and
// Pongs (§7.2).
func checkPlay(t *testing.T, res []seen, d time.Duration) {
	t.Helper()
	t.Logf("%+v", res)
	for i, s := range res {
		if s.err != nil || s.connected != 1 || s.ships != len(res) || s.missiles == 0 ||
			s.snapshots < int(d/time.Second)*18 || s.pongs < int(d/time.Second)-1 {
			t.Errorf("client %d in %v: %+v; want connected once, %d ships, missiles, about %d Snapshots, Pongs",
				i, d, s, len(res), int(d/time.Second)*20)
		}
	}
}
