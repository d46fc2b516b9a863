package conformance

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype"
)

// aliveID names the probe run between cases.
const aliveID = "liveness probe"

// aliveWait is how long the liveness probe sends Hellos before it
// judges the server gone, against a quick server; against a slower one it
// grows with the ladder's pace (ladder.aliveFor).
const aliveWait = 2 * time.Second

// probeAlive checks that the server still answers a Hello from a fresh
// address with anything at all; a Welcome's connection is closed again
// with Disconnect at the probe's end.
var probeAlive = Case{ID: aliveID, Title: "the server still answers a Hello", run: func(t *check) {
	p := t.newPlayer()
	wait := t.suite.ladder.aliveFor()
	if _, ok := p.helloUntil(wait, func(datagram) bool { return true }); !ok {
		t.Failf("no answer within %v to a Hello from a fresh address", wait)
	}
}}

// stoppedWhen says why the cases after the liveness probe that followed
// case after, waiting wait, were not run: the server stopped answering
// during case during, when the run's traffic tells which, else after case
// after.
func stoppedWhen(during, after string, wait time.Duration) string {
	when := "after case " + after
	if during != "" {
		when = "during case " + during
	}
	return fmt.Sprintf("the server stopped answering %s (did it crash?): a Hello from a fresh address got no answer within %v; "+
		"a full server that drops Hellos looks the same (§13)", when, wait)
}

// lastHeard follows, over a server run, when the server's last datagram
// came and which case first sent it one after that: once the server
// stops answering, that is the case it stopped during, whichever case
// ended first.
type lastHeard struct {
	server netip.AddrPort

	mu sync.Mutex
	at time.Time
	// by is the case that got the server's last datagram, next the
	// first case that sent the server one after it, or "".
	by, next string
}

// note takes a datagram of case id, from src to dst, at when. The run's
// probes answer for no case: what they send blames none.
func (h *lastHeard) note(id string, src, dst netip.AddrPort, at time.Time) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case src == h.server && !at.Before(h.at):
		h.at, h.by, h.next = at, id, ""
	case dst == h.server && h.next == "" && !probing(id):
		h.next = id
	}
}

// during names the case the server stopped answering during: the first
// to send it a datagram after its last one, else the case that got that
// one; "" when neither is a case.
func (h *lastHeard) during() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.next != "":
		return h.next
	case !probing(h.by):
		return h.by
	}
	return ""
}

// probing reports whether id names one of the run's probes, not a case.
func probing(id string) bool {
	return id == aliveID || id == ladderID || id == "probe" || id == ""
}

// silence explains a server that answered no Hello of the first probe.
// On the system's UDP it asks the host, with a connected socket that
// sees ICMP port unreachable, whether anything listens at addr: on
// loopback that always tells; elsewhere ICMP may be filtered.
func silence(detail string, addr netip.AddrPort, own bool) string {
	const handshake = "check the server's handshake parsing: a Hello is the 6 bytes 52 54 59 50 01 01 (§4.1, §4.2), answered with a 10-byte Welcome (§4.3)"
	if own {
		return fmt.Sprintf("%s; is the server listening at %v on this network? If it is, %s", detail, addr, handshake)
	}
	switch listening(addr) {
	case errRefused:
		return fmt.Sprintf("%s; nothing listens at UDP %v (the host answered ICMP port unreachable): is the server running, on UDP?", detail, addr)
	case nil:
		if addr.Addr().IsLoopback() {
			return fmt.Sprintf("%s; a socket is open at UDP %v (no ICMP port unreachable came back), so the server runs but answers no Hello: %s", detail, addr, handshake)
		}
	}
	return fmt.Sprintf("%s; is the server running at %v, on UDP? If it is, %s", detail, addr, handshake)
}

// errRefused is what listening returns when the host said nothing
// listens.
var errRefused = errors.New("port unreachable")

// listening sends one Hello to addr from a connected socket and reads:
// a refused read is the host's ICMP port unreachable; an answer or
// silence return nil; other errors are returned as they are.
func listening(addr netip.AddrPort) error {
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(addr))
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write(rtype.AppendHello(nil)); err != nil {
		return refused(err)
	}
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	var b [rtype.MaxDatagramSize]byte
	if _, err := c.Read(b[:]); err != nil && !errors.Is(err, syscall.ETIMEDOUT) {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil
		}
		return refused(err)
	}
	return nil
}

func refused(err error) error {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return errRefused
	}
	return err
}
