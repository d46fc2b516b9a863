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
	rc, none, readErr := watchCapture(f, o)
	f.Close()
	if none != nil {
		none.write(stderr, readErr)
	}
	if rc == nil || len(rc.clients) == 0 {
		if readErr != nil {
			fmt.Fprintf(stderr, "rtypedump: %s: %v\n", o.name, readErr)
		}
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

// watchCapture reads the capture f for -watch: a first pass finds the
// server, or its clients with -port, then the replay is loaded. Without a
// client, rc is nil and none a *noClientError; readErr is the fault of a
// capture cut short, if any.
func watchCapture(f *os.File, o options) (rc *replayCapture, none *noClientError, readErr error) {
	var find serverFinder
	readErr = survey(f, &find)
	port, _ := find.server()
	if o.port != 0 {
		port = o.port
	}
	if none = noClientIn(&find, o.port, o.name); none != nil {
		return nil, none, readErr
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	rc, readErr = loadReplay(f, port)
	return rc, nil, readErr
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
