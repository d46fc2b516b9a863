package planted

import (
	"errors"
	"net"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// datagram is one datagram read, in a buffer of its exact size.
type datagram struct {
	from netip.AddrPort
	b    []byte
}

// reader reads a socket on a goroutine of its own, so that the loop owning
// the game can tick between datagrams.
type reader struct {
	conn conformance.Conn
	in   chan datagram
	quit chan struct{}
	// done is closed when the reader ends: by stop, or when the socket
	// closed under it.
	done chan struct{}
}

// Read errors other than the socket's end (an ICMP error of an earlier
// send) are lost datagrams; after a run of them the reader rests, so that
// a socket failing at once, again and again, does not spin.
const (
	readErrorRun   = 64
	readErrorPause = time.Millisecond
)

func startReader(conn conformance.Conn) *reader {
	r := &reader{conn: conn, in: make(chan datagram, 64), quit: make(chan struct{}), done: make(chan struct{})}
	go r.loop()
	return r
}

func (r *reader) loop() {
	defer close(r.done)
	buf := make([]byte, recvBuffer)
	errs := 0
	for {
		n, from, err := r.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if errs++; errs%readErrorRun == 0 {
				time.Sleep(readErrorPause)
			}
			continue
		}
		errs = 0
		select {
		case r.in <- datagram{from: from, b: exact(buf[:n])}:
		case <-r.quit:
			return
		}
	}
}

// stop closes the socket, as a process's exit does, and waits for the
// reader to end.
func (r *reader) stop() {
	close(r.quit)
	r.conn.Close()
	<-r.done
}
