package bot

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/session"
)

func startServer(t *testing.T) (*net.UDPConn, context.CancelFunc, chan error) {
	t.Helper()
	return startServerWith(t, gameserver.Config{})
}

func startServerWith(t *testing.T, cfg gameserver.Config) (*net.UDPConn, context.CancelFunc, chan error) {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(cfg).Serve(ctx, conn) }()
	return conn, cancel, done
}

// A bot whose server goes silent loses its session (§13.3) and says so.
func TestBotLosesSessionWhenServerStops(t *testing.T) {
	t.Parallel()
	// heard is signalled on every datagram the server receives from the
	// bot, one Input a frame once connected.
	heard := make(chan struct{}, 1)
	conn, stop, done := startServerWith(t, gameserver.Config{Hooks: &session.Hooks{
		OnReceive: func(netip.AddrPort, []byte) bool {
			select {
			case heard <- struct{}{}:
			default:
			}
			return true
		},
	}})
	b := New(Config{
		Server:   conn.LocalAddr().(*net.UDPAddr).AddrPort(),
		Name:     "b",
		Duration: 10 * time.Second,
		Session:  session.ClientConfig{ServerTimeout: 300 * time.Millisecond},
	})
	res := make(chan Result, 1)
	go func() { res <- b.Run(context.Background()) }()
	// Look again at each datagram the server hears: a connected bot sends
	// an Input every frame and publishes its counters every few frames, so
	// once they show a Snapshot, a later Input wakes the loop to see it.
	deadline := time.NewTimer(3 * time.Second)
	defer deadline.Stop()
	for b.Live().Client.Snapshots == 0 {
		select {
		case <-heard:
		case <-deadline.C:
			t.Fatal("no snapshot within 3 s")
		}
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
// having resent Hello every second: as many Hellos as reached the silent
// port, never more than one a second. The bounds do not depend on how
// promptly a loaded machine runs the bot's frames: a late frame sends
// fewer Hellos, never more, and 2.5 s of giving up leave room for two.
func TestBotNoServer(t *testing.T) {
	t.Parallel()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close() // a port that never answers
	const every, giveUp = time.Second, 2500 * time.Millisecond
	b := New(Config{
		Server:  conn.LocalAddr().(*net.UDPAddr).AddrPort(),
		Session: session.ClientConfig{GiveUp: giveUp},
	})
	r := b.Run(context.Background())
	if r.Connected || r.Status() != "no-connect" || !errors.Is(r.Err, session.ErrTimedOut) {
		t.Fatalf("connected=%v status=%s err=%v", r.Connected, r.Status(), r.Err)
	}
	// Every Hello was sent before Run returned: it waits in the socket.
	arrived := 0
	buf := make([]byte, 64)
	for {
		_ = conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		n, _, err := conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			break
		}
		if string(buf[:n]) != string(rtype.AppendHello(nil)) {
			t.Fatalf("the bot sent % x, want Hello", buf[:n])
		}
		arrived++
	}
	if r.HelloResends != arrived-1 {
		t.Errorf("the bot reports %d Hello resends, %d Hellos arrived", r.HelloResends, arrived)
	}
	// The first Hello at 0, then one at most every second until 2.5 s:
	// at most 2 resends.
	if most := int((giveUp - 1) / every); r.HelloResends < 1 || r.HelloResends > most {
		t.Errorf("%d Hello resends in %v at one per %v, want 1 to %d", r.HelloResends, giveUp, every, most)
	}
}
