package planted

import (
	"bufio"
	"errors"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// buildCommand builds plantedserver, or finds it built.
func buildCommand(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs plantedserver over UDP")
	}
	bin := exampletest.Build(t, "./rtypefuzz/internal/planted/plantedserver")
	return bin
}

// process is a started plantedserver: its stderr's lines as they come,
// all of it once it ended, and its end.
type process struct {
	cmd    *exec.Cmd
	lines  chan string
	mu     sync.Mutex
	stderr strings.Builder
	ended  chan error
}

func start(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), lines: make(chan string, 64), ended: make(chan error, 1)}
	r, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
		p.ended <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.ended
	})
	return p
}

// line waits up to 10 s for a line of stderr that starts with prefix.
func (p *process) line(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l := <-p.lines:
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			t.Fatalf("no %q line on stderr within 10s", prefix)
		}
	}
}

// exit waits up to 10 s for the process to end and returns its exit code.
func (p *process) exit(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.ended:
		p.ended <- err
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s later")
		return -1
	}
}

func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// udp opens a socket of 127.0.0.1.
func udp(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Skipf("no UDP on 127.0.0.1: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// await reads c for up to d until a datagram matches.
func await(c *net.UDPConn, d time.Duration, match func([]byte) bool) ([]byte, netip.AddrPort, bool) {
	c.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, recvBuffer)
	for {
		n, from, err := c.ReadFromUDPAddrPort(buf)
		if err != nil {
			return nil, netip.AddrPort{}, false
		}
		if match(buf[:n]) {
			return buf[:n], from, true
		}
	}
}

// TestCommandServer runs plantedserver over UDP: the TrustedLength
// trigger kills the trusted-length server as a panic kills a native
// process, exit status 2; the careful server answers on and ends with
// status 0 on SIGINT.
func TestCommandServer(t *testing.T) {
	bin := buildCommand(t)
	for _, bug := range []Bug{None, TrustedLength} {
		t.Run(bug.String(), func(t *testing.T) {
			p := start(t, bin, "-addr", "127.0.0.1:0", "-bug", bug.String())
			addr := netip.MustParseAddrPort(strings.TrimPrefix(p.line(t, "listening "), "listening "))
			c := udp(t)
			c.WriteToUDPAddrPort(helloDatagram(), addr)
			w, _, ok := await(c, 5*time.Second, isWelcome)
			if !ok {
				t.Fatal("no Welcome within 5s")
			}
			id := be.Uint32(w[6:])
			c.WriteToUDPAddrPort(serverTrigger(TrustedLength, id, 1), addr)
			if bug == TrustedLength {
				if code := p.exit(t); code != 2 || !strings.Contains(p.output(), "panic: runtime error: slice bounds out of range") {
					t.Fatalf("exit status %d, stderr:\n%s\nwant status 2 and the panic", code, p.output())
				}
				return
			}
			c.WriteToUDPAddrPort(packet(id, 2, ping(77)), addr)
			if _, _, ok := await(c, 5*time.Second, func(b []byte) bool { return len(pongs(b)) > 0 }); !ok {
				t.Fatal("no Pong within 5s after the trigger")
			}
			p.cmd.Process.Signal(os.Interrupt)
			if code := p.exit(t); code != 0 {
				t.Fatalf("exit status %d on SIGINT, stderr:\n%s", code, p.output())
			}
		})
	}
}

// TestCommandClient runs plantedserver -client against a server written
// in the test: the SnapshotCount trigger kills the snapshot-count client
// with exit status 2; the careful client plays on.
func TestCommandClient(t *testing.T) {
	bin := buildCommand(t)
	for _, bug := range []ClientBug{ClientNone, SnapshotCount} {
		t.Run(bug.String(), func(t *testing.T) {
			srv := udp(t)
			p := start(t, bin, "-client", srv.LocalAddr().String(), "-bug", bug.String())
			_, client, ok := await(srv, 10*time.Second, func(b []byte) bool { return string(b) == string(helloDatagram()) })
			if !ok {
				t.Fatal("no Hello within 10s")
			}
			srv.WriteToUDPAddrPort(welcome(7), client)
			srv.WriteToUDPAddrPort(packet(7, 1, clientTrigger(SnapshotCount)), client)
			if bug == SnapshotCount {
				if code := p.exit(t); code != 2 || !strings.Contains(p.output(), "panic: runtime error: index out of range [47]") {
					t.Fatalf("exit status %d, stderr:\n%s\nwant status 2 and the panic", code, p.output())
				}
				return
			}
			acked := func(b []byte) bool { return len(b) >= headerSize && be.Uint32(b[8:]) == 1 }
			if _, _, ok := await(srv, 5*time.Second, acked); !ok {
				t.Fatal("the client does not acknowledge the packet of the trigger: it stopped playing")
			}
			p.cmd.Process.Signal(os.Interrupt)
			if code := p.exit(t); code != 0 {
				t.Fatalf("exit status %d on SIGINT, stderr:\n%s", code, p.output())
			}
		})
	}
}
