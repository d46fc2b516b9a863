package main

import "time"

// maxHoldBack bounds the bytes of a stream's datagrams held back while its
// server is unknown: minutes of a game, whose Hello and Welcome come
// first, and all the memory a hostile stream can take that way.
const maxHoldBack = 8 << 20

// heldOverhead is what a held datagram costs besides its bytes.
const heldOverhead = 128

// heldDatagram is a capture's UDP datagram with its record number and time.
type heldDatagram struct {
	n  int
	at time.Time
	u  udpDatagram
}

// holdback is what a stream read once holds while its server is unknown.
type holdback struct {
	held                 []heldDatagram
	heldBytes, holdLimit int
	// passed: holdLimit bytes went by before any sign of a server; late
	// is the record where one showed after that, 0 if none did.
	passed bool
	late   int
}

// hold holds h back until the server is known: until a Welcome answers a
// Hello (§4.3), or until holdLimit bytes are held, when the evidence so
// far decides. Past them without any, the first datagram that shows a
// server starts the decoding.
func (d *dumper) hold(h *heldDatagram) error {
	if d.passed {
		if _, by := d.find.server(); by < d.need {
			return nil
		}
		d.late = h.n
		d.held = append(d.held, *h)
		return d.release()
	}
	d.held = append(d.held, *h)
	d.heldBytes += len(h.u.payload) + heldOverhead
	if _, by := d.find.server(); by < byWelcome && d.heldBytes < d.holdLimit {
		return nil
	}
	return d.release()
}

// release takes the server the evidence so far shows and decodes the
// datagrams held back. Without enough evidence it drops them: none is
// the protocol's, or of a client.
func (d *dumper) release() error {
	held := d.held
	d.held, d.heldBytes = nil, 0
	if d.sides != nil {
		return nil
	}
	port, by := d.find.server()
	if by < d.need {
		d.passed = true
		return nil
	}
	d.serve(port, by)
	for i := range held {
		if err := d.decode(&held[i]); err != nil {
			return err
		}
	}
	return nil
}
