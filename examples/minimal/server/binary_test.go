package main

import (
	"context"
	"net"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/exampletest"
)

// TestBinary builds the minimal server and runs it as a user does, on a
// loopback UDP port: it answers Hello, and passes the suite's cases of the
// handshake (§4) and the sequence window (§5.2), strict, on real sockets.
// TestConformance runs the whole suite on its game in memory.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program on real sockets")
	}
	t.Parallel()
	bin := exampletest.Build(t, "./examples/minimal/server")
	addr := freePort(t)
	cmd := exec.Command(bin, "-addr", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitWelcome(t, addr)
	rep, err := conformance.RunServer(context.Background(), addr, conformance.Options{Run: regexp.MustCompile(`^(4\.|5\.2/)`), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Outcome != conformance.Pass {
			t.Errorf("%s %s %s: %s", r.Case.ID, r.Case.Level, r.Outcome, r.Detail)
		}
	}
}

// freePort returns a loopback UDP address nothing listens on now.
func freePort(t *testing.T) string {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().String()
}

// waitWelcome sends a Hello every 100 ms until a Welcome comes (§4.2,
// §4.3), for at most exampletest.Deadline: the server is up.
func waitWelcome(t *testing.T, addr string) {
	c, err := net.Dial("udp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, rtype.MaxDatagramSize)
	for deadline := time.Now().Add(exampletest.Deadline); time.Now().Before(deadline); {
		_, _ = c.Write(rtype.AppendHello(nil))
		_ = c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if n, err := c.Read(buf); err == nil {
			if typ, _, err := rtype.ParseHandshake(buf[:n]); err == nil && typ == rtype.HandshakeWelcome {
				return
			}
		}
	}
	t.Fatalf("no Welcome from the minimal server on %s within %v", addr, exampletest.Deadline)
}
