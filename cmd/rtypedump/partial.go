package main

import (
	"fmt"

	"github.com/rtypeproto/rtype/internal/wiredump"
)

// partialError is a datagram the capture holds part of only: an IPv4
// fragment not reassembled, or a datagram cut by the snapshot length. It is
// a [wiredump.ErrNotWholeDatagram].
type partialError struct {
	// size is the datagram's size by its UDP header, captured the bytes the
	// capture holds of a cut one.
	size, captured int
	fragment       bool
}

func (e *partialError) Error() string {
	if e.fragment {
		return fmt.Sprintf("IPv4 fragment of a %d-byte datagram, not reassembled (§2.2 forbids fragmenting datagrams)", e.size)
	}
	return fmt.Sprintf("datagram cut by the capture: %d of %d bytes captured", e.captured, e.size)
}

// Unwrap makes the error a [wiredump.ErrNotWholeDatagram], for its drop key.
func (e *partialError) Unwrap() error { return wiredump.ErrNotWholeDatagram }
