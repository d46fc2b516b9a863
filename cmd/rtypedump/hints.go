package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/termwidth"
)

// sniffLen is how much of an input that is no capture is read to tell
// whether it is hex datagrams.
const sniffLen = 4096

// notCaptureError is an input whose first bytes are no capture's magic;
// hint, when not empty, says what the input looks like instead.
type notCaptureError struct {
	magic [4]byte
	hint  string
}

func (e *notCaptureError) Error() string {
	return fmt.Sprintf("not a pcap or pcapng capture (magic %x)", e.magic[:])
}

// hexHint returns the flags to read head with when it reads as hex
// datagrams, one per line, as -hex reads them: "-hex", or "-hex -kind
// handshake" when most datagrams begin with the handshake magic (§4.1);
// "" when it does not read as hex. complete is false when head is only the
// start of the input, so that its last line may be cut. More lines of hex
// than lines that are not, and one datagram at least, make it hex: a file
// of hex datagrams with a bad line among them is still one.
func hexHint(head []byte, complete bool) string {
	lines := bytes.Split(head, []byte("\n"))
	if !complete && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	var datagrams, handshakes, bad int
	for _, line := range lines {
		data, _, err := parseHexLine(line)
		switch {
		case err != nil:
			bad++
		case data != nil:
			datagrams++
			if startsWithMagic(data) {
				handshakes++
			}
		}
	}
	switch {
	case datagrams == 0 || bad >= datagrams:
		return ""
	case 2*handshakes > datagrams:
		return "-hex" + termwidth.NBSP + "-kind" + termwidth.NBSP + "handshake"
	}
	return "-hex"
}

// startsWithMagic reports whether b begins with the handshake magic,
// "RTYP" (§4.1).
func startsWithMagic(b []byte) bool {
	return len(b) >= 4 && binary.BigEndian.Uint32(b) == rtype.Magic
}

// kindTally counts, in hex input read as packets, the datagrams that are
// no valid packet and begin with the handshake magic: handshake datagrams
// read with the wrong parser, most likely.
type kindTally struct {
	datagrams, handshakes int
}

// add counts one datagram of hex input, data as read, valid as a packet
// or not.
func (k *kindTally) add(data []byte, valid bool) {
	k.datagrams++
	if !valid && startsWithMagic(data) {
		k.handshakes++
	}
}

// hint returns a line suggesting -kind handshake when some datagrams look
// like handshakes; "" otherwise.
func (k *kindTally) hint() string {
	if k.handshakes == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %d datagrams read as packets begin with the handshake magic 0x%08x (§4.1): "+
		"are they handshake datagrams (-kind"+termwidth.NBSP+"handshake)?", k.handshakes, k.datagrams, rtype.Magic)
}
