package bot

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/session"
)

func startServer(t *testing.T) (*net.UDPConn, context.CancelFunc, chan error) {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(gameserver.Config{}).Serve(ctx, conn) }()
	return conn, cancel, done
}

// A bot whose server goes silent loses its session (§13.3) and says so.
func TestBotLosesSessionWhenServerStops(t *testing.T) {
	t.Parallel()
	conn, stop, done := startServer(t)
	b := New(Config{
		Server:   conn.LocalAddr().(*net.UDPAddr).AddrPort(),
		Name:     "b",
		Duration: 10 * time.Second,
		Session:  session.ClientConfig{ServerTimeout: 300 * time.Millisecond},
	})
	res := make(chan Result, 1)
	go func() { res <- b.Run(context.Background()) }()
	deadline := time.Now().Add(3 * time.Second)
	for b.Live().Client.Snapshots == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no snapshot within 3 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	<-done
	select {
	case r := <-res:
		if !r.Connected || !r.Lost || r.Status() != "lost" || !errors.Is(r.Err, session.ErrTimedOut) {
			t.Fatalf("connected=%v lost=%v status=%s err=%v, want a lost session", r.Connected, r.Lost, r.Status(), r.Err)
		}
		if r.Entities != 0 {
			t.Fatalf("%d entities left after the server ended the game (§8.3 reason 4)", r.Entities)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the bot did not notice its server was gone")
	}
}

// A bot with no server gives up (§4.2) and reports it never connected,
// having resent Hello every HelloInterval.
func TestBotNoServer(t *testing.T) {
	t.Parallel()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close() // a port that never answers
	b := New(Config{
		Server:  conn.LocalAddr().(*net.UDPAddr).AddrPort(),
		Session: session.ClientConfig{HelloInterval: 100 * time.Millisecond, GiveUp: 450 * time.Millisecond},
	})
	r := b.Run(context.Background())
	if r.Connected || r.Status() != "no-connect" || !errors.Is(r.Err, session.ErrTimedOut) {
		t.Fatalf("connected=%v status=%s err=%v", r.Connected, r.Status(), r.Err)
	}
	// Hellos at 0, 100 … 400 ms: 4 resends, fewer if a loaded machine
	// delays frames; never more.
	if r.HelloResends < 2 || r.HelloResends > 4 {
		t.Fatalf("%d Hello resends in 450 ms at one per 100 ms", r.HelloResends)
	}
}
