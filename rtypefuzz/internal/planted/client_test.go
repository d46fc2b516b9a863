package planted

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypetest"
)

// allClientBugs is ClientNone and every client bug.
func allClientBugs() []ClientBug { return append([]ClientBug{ClientNone}, ClientBugs()...) }

// playing is a Play started in a bubble.
type playing struct {
	addr   netip.AddrPort
	done   chan error
	cancel context.CancelFunc
}

// play starts Play with bug against serverAddr of nw until the test ends.
func play(t *testing.T, nw *rtypetest.Network, bug ClientBug) *playing {
	t.Helper()
	conn, err := nw.Listen(netip.AddrPortFrom(clientIP, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &playing{addr: conn.AddrPort(), done: make(chan error, 1), cancel: cancel}
	go func() { c.done <- Play(ctx, conn, serverAddr, bug) }()
	t.Cleanup(func() { c.cancel(); <-c.done })
	return c
}

// TestPlayAgainstServer plays each client, ClientNone and every bug,
// against the careful server for 3 s: valid traffic sets no bug off; the
// client sends a packet every frame and gets the Snapshots.
func TestPlayAgainstServer(t *testing.T) {
	for _, bug := range allClientBugs() {
		t.Run(bug.String(), func(t *testing.T) {
			inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
				serve(t, nw, None)
				c := play(t, nw, bug)
				time.Sleep(3 * time.Second)
				select {
				case err := <-c.done:
					t.Fatalf("Play returned %v on valid traffic", err)
				default:
				}
				c.cancel()
				if err := <-c.done; err != nil {
					t.Fatalf("Play returned %v once its context ended; want nil", err)
				}
				c.done <- nil
				up, down := nw.Stats(c.addr, serverAddr).Delivered, nw.Stats(serverAddr, c.addr).Delivered
				if up < 170 || down < 55 {
					t.Errorf("in 3s the client sent %d datagrams and got %d; want a packet a frame and 20 Snapshots a second", up, down)
				}
			})
		})
	}
}

// script is a server written by hand, for one client.
type script struct {
	t      *testing.T
	conn   *rtypetest.Conn
	client netip.AddrPort
	seq    uint32
}

// welcomeClient listens on serverAddr, waits for the client's Hello and
// welcomes it as connection 7 (§4.3).
func welcomeClient(t *testing.T, nw *rtypetest.Network) *script {
	t.Helper()
	conn, err := nw.Listen(serverAddr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &script{t: t, conn: conn}
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, recvBuffer)
	n, from, err := conn.ReadFromUDPAddrPort(buf)
	if err != nil || string(buf[:n]) != string(helloDatagram()) {
		t.Fatalf("no Hello within 2s: % x, %v", buf[:n], err)
	}
	s.client = from
	conn.WriteToUDPAddrPort(welcome(7), from)
	return s
}

// send sends msgs in the next packet.
func (s *script) send(msgs ...[]byte) {
	s.seq++
	b := appendHeader(nil, 7, s.seq, 0, 0)
	for _, m := range msgs {
		b = append(b, m...)
	}
	s.conn.WriteToUDPAddrPort(b, s.client)
}

// heard reports whether the client sent a packet acknowledging the
// script's last within d: it received it and plays on (§5.1).
func (s *script) heard(d time.Duration) bool {
	s.conn.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, recvBuffer)
	for {
		n, _, err := s.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			return false
		}
		if n >= headerSize && be.Uint32(buf[8:]) == s.seq {
			return true
		}
	}
}

// nearValid are valid messages next to the client bugs' triggers: a
// Snapshot of 47 states, the most (§8.1), and a CreateEntity of every
// archetype of §9.3.
func nearValid() [][]byte {
	ids := make([]uint32, maxStates)
	for i := range ids {
		ids[i] = uint32(100 + i)
	}
	msgs := [][]byte{snapshotMsg(3, maxStates, ids...)}
	for i, a := range archetypes {
		msgs = append(msgs, createMsgBytes(uint32(200+i), a))
	}
	return msgs
}

// TestClientTriggers sends each client bug's trigger to each client,
// after the valid messages next to it: the client of that bug crashes,
// and every other, ClientNone included, drops it and plays on.
func TestClientTriggers(t *testing.T) {
	crashes := map[ClientBug]string{
		SnapshotCount: "index out of range [47] with length 47",
		Archetype:     "index out of range [-1]",
	}
	for _, client := range allClientBugs() {
		for _, trigger := range ClientBugs() {
			t.Run(fmt.Sprintf("%v client, %v trigger", client, trigger), func(t *testing.T) {
				inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
					c := play(t, nw, client)
					s := welcomeClient(t, nw)
					for _, m := range nearValid() {
						s.send(m)
					}
					if !s.heard(time.Second) {
						t.Fatal("the client does not play on valid messages")
					}
					s.send(clientTrigger(trigger))
					if client != trigger {
						if !s.heard(time.Second) {
							t.Fatal("the client stopped playing")
						}
						return
					}
					checkClientCrashed(t, c, crashes[trigger])
				})
			})
		}
	}
}

func checkClientCrashed(t *testing.T, c *playing, want string) {
	t.Helper()
	select {
	case err := <-c.done:
		c.done <- err
		if !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), want) {
			t.Fatalf("Play returned %v; want a *Crash wrapping ErrCrashed, saying %q", err, want)
		}
	case <-time.After(time.Second):
		t.Fatal("Play still running 1s after the trigger")
	}
}

// TestClientConformance runs the conformance suite's client cases
// against the careful client, in virtual time.
func TestClientConformance(t *testing.T) {
	inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
		start := func(ctx context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
			conn, err := nw.Listen(netip.AddrPortFrom(clientIP, 0))
			if err != nil {
				return nil, nil, err
			}
			ctx, cancel := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() {
				defer close(done)
				Play(ctx, conn, server, ClientNone)
			}()
			return func() { cancel(); <-done }, done, nil
		}
		conformance.TestClient(t, start, conformance.Options{Network: conformance.NetworkOf(nw.Listen)})
	})
}
