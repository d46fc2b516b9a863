package rtypefuzz

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/proc"
)

// StartWait bounds how long a started server may take to answer its first
// Hello.
const StartWait = 10 * time.Second

// CommandServer is a server run as a command: each Start starts it
// afresh.
type CommandServer struct {
	out  io.Writer
	name string
	args []string
	mu   sync.Mutex
	p    *proc.Process // the last started
}

// Command returns the server run as name with args, every "{port}" in
// them replaced by a free UDP port of 127.0.0.1, where the server must
// listen. It counts as started once it answers a Hello. Its stop sends
// SIGINT, then SIGKILL after conformance.QuitGrace; the command runs in a
// process group of its own. Its output goes to out, or nowhere.
func Command(out io.Writer, name string, args ...string) *CommandServer {
	return &CommandServer{out: out, name: name, args: args}
}

// Start is a Start of the command.
func (c *CommandServer) Start(ctx context.Context) (netip.AddrPort, <-chan error, func(), error) {
	port, err := freePort()
	if err != nil {
		return netip.AddrPort{}, nil, nil, err
	}
	p, err := proc.Start(c.out, map[string]string{"port": strconv.Itoa(int(port))}, c.name, c.args...)
	if err != nil {
		return netip.AddrPort{}, nil, nil, err
	}
	c.mu.Lock()
	c.p = p
	c.mu.Unlock()
	stop := func() { p.Stop(conformance.QuitGrace) }
	addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), port)
	if err := awaitServer(ctx, addr, p.Done); err != nil {
		stop()
		return netip.AddrPort{}, nil, nil, err
	}
	return addr, ended(p), stop, nil
}

// RSS reads the resident memory of the process last started: the
// Options.RSS of a run on it.
func (c *CommandServer) RSS() (uint64, error) {
	c.mu.Lock()
	p := c.p
	c.mu.Unlock()
	if p == nil {
		return 0, fmt.Errorf("%w: not started", ErrRSS)
	}
	return RSS(p.Pid())
}

// awaitServer waits for the server at addr to answer a Hello (§4.2), for
// at most StartWait, or until it ends.
func awaitServer(ctx context.Context, addr netip.AddrPort, done <-chan struct{}) error {
	deadline := time.Now().Add(StartWait)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return fmt.Errorf("%w: the server ended as it started", ErrUnreachable)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		s, err := dial(conformance.UDP, netip.AddrPortFrom(addr.Addr(), 0), addr, Server)
		if err != nil {
			return err
		}
		err = s.open(200 * time.Millisecond)
		s.leave()
		if err == nil || err == errRejected {
			return nil
		}
	}
	return fmt.Errorf("%w: no Welcome within %v of its start", ErrUnreachable, StartWait)
}

// freePort returns a UDP port of 127.0.0.1 free now.
func freePort() (uint16, error) {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return uint16(c.LocalAddr().(*net.UDPAddr).Port), nil
}

// ended is a channel that gets how p ended, once it did.
func ended(p *proc.Process) <-chan error {
	c := make(chan error, 1)
	go func() {
		<-p.Done
		c <- p.Err
	}()
	return c
}

// ClientCommand returns the ClientStart of a client run as name with
// args, every "{addr}" in them replaced by the fuzzer's address, as
// rtypecheck's client mode does. Its end is cmd.Wait's: nil for status 0,
// an *exec.ExitError for a non-zero status or a signal. stop sends SIGINT,
// which a client takes as its player quitting, then SIGKILL after
// conformance.QuitGrace; the command runs in a process group of its own,
// so that a wrapper such as "go run" passes the signal on. Its output goes
// to out, or nowhere.
func ClientCommand(out io.Writer, name string, args ...string) ClientStart {
	return func(_ context.Context, server netip.AddrPort) (<-chan error, func(), error) {
		p, err := proc.Start(out, map[string]string{"addr": server.String()}, name, args...)
		if err != nil {
			return nil, nil, err
		}
		return ended(p), func() { p.Stop(conformance.QuitGrace) }, nil
	}
}
