package main

import (
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
)

// noClientError is a capture without an R-Type client, saying what it
// holds instead: -report, -watch, -stats and -qlog have nothing to show.
type noClientError struct {
	source    string // the capture's name
	port      uint16 // -port, 0 for auto
	datagrams int    // UDP datagrams
	ports     int    // UDP ports at either end of them
	busiest   []uint16
	hellos    int            // Hellos, when none was answered (§4.2)
	helloTo   netip.AddrPort // where the first one went
	elsewhere uint16         // with -port, the server found without it
}

// noClientIn returns a *noClientError when f saw no client of the server
// on port, or of the server it found with port 0; nil otherwise.
func noClientIn(f *serverFinder, port uint16, source string) *noClientError {
	found, by := f.server()
	if port == 0 && by >= byPackets || port != 0 && f.clientOn(port) {
		return nil
	}
	e := &noClientError{source: source, port: port, datagrams: f.datagrams,
		ports: f.ports.size(), busiest: f.busy.busiest(3)}
	if !f.answer.IsValid() {
		e.hellos, e.helloTo = f.helloCount, f.firstHello
	}
	if port != 0 && by >= byPackets {
		e.elsewhere = found
	}
	return e
}

// write writes e on stderr, unless the capture broke off, readErr, before
// its first UDP datagram: its fault says it all.
func (e *noClientError) write(stderr io.Writer, readErr error) {
	if readErr == nil || e.datagrams > 0 {
		writeNote(stderr, e.Error())
	}
}

func (e *noClientError) Error() string {
	var b strings.Builder
	b.WriteString("no R-Type client")
	if e.port != 0 {
		fmt.Fprintf(&b, " of a server on port %d", e.port)
	}
	fmt.Fprintf(&b, " in %s: ", e.source)
	if e.datagrams == 0 {
		b.WriteString("no UDP datagram")
		return b.String()
	}
	fmt.Fprintf(&b, "%s between %s (%s)", count(e.datagrams, "UDP datagram"),
		count(e.ports, "port"), portList(e.busiest, e.ports))
	switch {
	case e.hellos > 0:
		fmt.Fprintf(&b, ", %s to %v first (§4.2), none answered by a Welcome (§4.3), and no connected packet (§5.1)",
			count(e.hellos, "Hello"), e.helloTo)
	case e.port != 0:
		fmt.Fprintf(&b, ", none a Welcome from port %d answering a Hello nor a connected packet to or from it", e.port)
	default:
		b.WriteString(", none a Hello answered by a Welcome (§4.3) nor a connected packet (§5.1)")
	}
	if e.elsewhere != 0 {
		fmt.Fprintf(&b, "; the server seems on port %d: without -port, rtypedump finds it", e.elsewhere)
	}
	return b.String()
}

// portList names ports, the busiest of n.
func portList(ports []uint16, n int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(int(p))
	}
	if n > len(ports) {
		return strings.Join(s, ", ") + ", …"
	}
	return strings.Join(s, ", ")
}

// count is n things, n with thousands separated: "1,204 UDP datagrams".
func count(n int, thing string) string {
	if n != 1 {
		thing += "s"
	}
	return grouped(n) + " " + thing
}

// grouped writes n with a comma between groups of three digits.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
