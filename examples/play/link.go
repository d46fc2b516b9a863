//go:build !js

package main

import (
	"bytes"
	"errors"
	"net"
	"net/netip"

	tea "charm.land/bubbletea/v2"

	"github.com/rtypeproto/rtype/session"
)

// maxDatagram is the read buffer: above the 548 bytes of §2.2, so that
// the client sees, and drops, a datagram too large.
const maxDatagram = 2048

// SocketError is a failure of the socket under the session; it matches
// session.ErrSocket and its cause.
type SocketError struct{ Err error }

// Error says what failed.
func (e SocketError) Error() string { return session.ErrSocket.Error() + ": " + e.Err.Error() }

// Unwrap returns session.ErrSocket and the cause.
func (e SocketError) Unwrap() []error { return []error{session.ErrSocket, e.Err} }

// link is the UDP socket the client talks to the server on. The session
// runs sans-I/O in the model: link only moves datagrams.
type link struct {
	conn *net.UDPConn
	done chan struct{}
}

// listen opens a socket on an ephemeral port of server's address family.
func listen(server netip.AddrPort) (*link, error) {
	network := "udp4"
	if !server.Addr().Unmap().Is4() {
		network = "udp6"
	}
	conn, err := net.ListenUDP(network, nil)
	if err != nil {
		return nil, SocketError{err}
	}
	return &link{conn: conn, done: make(chan struct{})}, nil
}

// send is the client's SendFunc. A datagram the network refuses is lost,
// as UDP may lose any (§5.2).
func (l *link) send(to netip.AddrPort, b []byte) {
	_, _ = l.conn.WriteToUDPAddrPort(b, to)
}

// read hands every datagram received to deliver, as a datagramMsg, until
// the socket is closed; any other read error goes as a socketErrMsg.
// deliver blocks while the model is busy, which bounds what waits.
func (l *link) read(deliver func(tea.Msg)) {
	defer close(l.done)
	buf := make([]byte, maxDatagram)
	for {
		n, from, err := l.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				deliver(socketErrMsg{SocketError{err}})
			}
			return
		}
		from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		deliver(datagramMsg{b: bytes.Clone(buf[:n]), from: from})
	}
}

// close closes the socket and waits for read to return.
func (l *link) close() {
	_ = l.conn.Close()
	<-l.done
}
