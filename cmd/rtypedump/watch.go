package main

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
)

// errNoTerminal: -watch's standard input is no terminal.
var errNoTerminal = errors.New("-watch needs a terminal: its standard input is none")

// runWatch is -watch: it reads the capture, then replays the chosen
// client's game on the terminal until q.
func runWatch(o options, stderr io.Writer) int {
	f, err := os.Open(o.name)
	if err != nil {
		fmt.Fprintln(stderr, "rtypedump:", err)
		return exitInput
	}
	rc, readErr := loadReplay(f, o.port)
	f.Close()
	if rc == nil || len(rc.clients) == 0 {
		if readErr == nil {
			readErr = fmt.Errorf("no client of a server on port %d", o.port)
		}
		fmt.Fprintf(stderr, "rtypedump: %s: %v\n", o.name, readErr)
		return exitInput
	}
	ci := 0
	if o.client != "" {
		a, err := netip.ParseAddrPort(o.client)
		if err != nil {
			fmt.Fprintln(stderr, "rtypedump: -client:", err)
			return exitUsage
		}
		if ci = clientIndex(rc, a); ci < 0 {
			fmt.Fprintf(stderr, "rtypedump: -client: %v is no client of the capture\n", a)
			return exitUsage
		}
	}
	if err := watchTerminal(newReplayer(rc, ci), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(stderr, "rtypedump:", err)
		return exitInput
	}
	if readErr != nil {
		fmt.Fprintf(stderr, "rtypedump: %s: %v (the replay covered what was read)\n", o.name, readErr)
		return exitInput
	}
	return exitOK
}

// clientIndex is a's place among rc's clients, -1 if none.
func clientIndex(rc *replayCapture, a netip.AddrPort) int {
	for i, c := range rc.clients {
		if c.addr == a {
			return i
		}
	}
	return -1
}
