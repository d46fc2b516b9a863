package main

import (
	"fmt"
	"io"
)

// noteServer says on stderr how the server of a capture read without
// -port showed when that is a guess: by its connected packets alone, or
// past the datagrams a stream holds back.
func (d *dumper) noteServer(stderr io.Writer, label string) {
	if d.sides == nil || d.by == noEvidence {
		return
	}
	if d.by == byPackets {
		writeNote(stderr, fmt.Sprintf("no Hello answered by a Welcome in %s: the server is taken to be on port %d, "+
			"the one most of its %s name (§5.1, §6), or give -port; "+
			"a client whose Welcome the capture lacks has its datagrams read as handshake datagrams (§3)",
			label, d.port, count(d.find.packets, "valid connected packet")))
	}
	if d.late > 0 {
		writeNote(stderr, fmt.Sprintf("the server, on port %d, showed at record %d only, past the %s of %s held back "+
			"to find it: the records before it are not decoded; read the capture from a file, or give -port %d",
			d.port, d.late, count(d.holdLimit, "byte"), label, d.port))
	}
}

// noClient says on stderr how the server showed, when that is a guess,
// and reports whether the capture had no client, saying so: what it held
// instead, unless it broke off, readErr, before any UDP datagram.
func (d *dumper) noClient(stderr io.Writer, label string, readErr error) bool {
	d.noteServer(stderr, label)
	none := noClientIn(&d.find, d.o.port, label)
	if none != nil {
		none.write(stderr, readErr)
	}
	return none != nil
}
