package main

import (
	"errors"
	"net"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// wait bounds every read a test expects to succeed; quiet is how long a
// read that must time out waits, once a later answer showed the server
// already handled the datagram in question.
const (
	wait  = 5 * time.Second
	quiet = 50 * time.Millisecond
)

// start runs a server of the given stage on a free loopback port and stops
// it when the test ends, checking that serve returned cleanly.
func start(t *testing.T, cfg config) (*server, *net.UDPAddr) {
	t.Helper()
	pc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(pc, cfg)
	s.crash = func() { t.Error("crash called without -crash-after-snapshot") }
	done := make(chan error, 1)
	go func() { done <- s.serve() }()
	t.Cleanup(func() {
		_ = pc.Close()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s, pc.LocalAddr().(*net.UDPAddr)
}

// client is one test client on its own socket, so its own address.
type client struct {
	t       *testing.T
	c       *net.UDPConn
	id      uint32 // from Welcome
	seq     uint32 // last sequence sent
	buf     []byte
	pending []rtype.RawMessage // read but not yet looked at by next
}

func dial(t *testing.T, server *net.UDPAddr) *client {
	t.Helper()
	c, err := net.DialUDP("udp4", nil, server)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &client{t: t, c: c, buf: make([]byte, 2048)}
}

func (c *client) raw(b []byte) {
	c.t.Helper()
	if _, err := c.c.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// read returns the next datagram within d, or false when none came.
func (c *client) read(d time.Duration) ([]byte, bool) {
	c.t.Helper()
	_ = c.c.SetReadDeadline(time.Now().Add(d))
	n, err := c.c.Read(c.buf)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, false
	}
	if err != nil {
		c.t.Fatal(err)
	}
	return c.buf[:n], true
}

// welcome sends Hello and returns the connection id of the Welcome that
// must be the first answer.
func (c *client) welcome() uint32 {
	c.t.Helper()
	c.raw(rtype.AppendHello(nil))
	b, ok := c.read(wait)
	if !ok {
		c.t.Fatalf("no answer to a Hello within %v", wait)
	}
	typ, id, err := rtype.ParseHandshake(b)
	if err != nil || typ != rtype.HandshakeWelcome {
		c.t.Fatalf("Hello answered with % x (%v, %v), want a Welcome", b, typ, err)
	}
	c.id = id
	return id
}

// send sends the next packet with msgs.
func (c *client) send(msgs ...rtype.Message) uint32 {
	c.t.Helper()
	c.seq++
	c.raw(c.packet(c.seq, msgs...))
	return c.seq
}

// packet returns the bytes of packet seq with msgs.
func (c *client) packet(seq uint32, msgs ...rtype.Message) []byte {
	c.t.Helper()
	var b rtype.Builder
	if err := b.Reset(rtype.PacketHeader{ConnectionID: c.id, Sequence: seq}); err != nil {
		c.t.Fatal(err)
	}
	for _, m := range msgs {
		if err := rtype.Add(&b, m); err != nil {
			c.t.Fatal(err)
		}
	}
	return append([]byte(nil), b.Bytes()...)
}

// next returns the next message that match accepts, from the packets read
// for wait at most, checking the framing and connection id of each. The
// messages after it in its packet are kept for the next call.
func (c *client) next(what string, match func(rtype.RawMessage) bool) rtype.RawMessage {
	c.t.Helper()
	end := time.Now().Add(wait)
	for {
		for len(c.pending) > 0 {
			m := c.pending[0]
			c.pending = c.pending[1:]
			if match(m) {
				return m
			}
		}
		b, ok := c.read(time.Until(end))
		if !ok {
			c.t.Fatalf("connection %d: no %s within %v", c.id, what, wait)
		}
		for m := range c.parse(b).Messages() {
			m.Payload = slices.Clone(m.Payload)
			c.pending = append(c.pending, m)
		}
	}
}

// reply reads the next datagram, which must be a packet of this connection.
func (c *client) reply() rtype.Packet {
	c.t.Helper()
	b, ok := c.read(wait)
	if !ok {
		c.t.Fatalf("connection %d: no packet within %v of packet %d", c.id, wait, c.seq)
	}
	return c.parse(b)
}

func (c *client) parse(b []byte) rtype.Packet {
	c.t.Helper()
	p, err := rtype.ParsePacket(b)
	if err != nil {
		c.t.Fatalf("connection %d: % x is no valid packet: %v", c.id, b, err)
	}
	if h := p.Header(); h.ConnectionID != c.id {
		c.t.Fatalf("connection %d: a packet with connectionId %d", c.id, h.ConnectionID)
	}
	return p
}

// silent fails the test if anything is waiting to be read. It is called
// once a later answer showed that the server handled what came before.
func (c *client) silent(what string) {
	c.t.Helper()
	if b, ok := c.read(quiet); ok {
		c.t.Errorf("%s: the server answered % x", what, b)
	}
}

// is returns a matcher of messages of type typ.
func is(typ rtype.MessageType) func(rtype.RawMessage) bool {
	return func(m rtype.RawMessage) bool { return m.Type == typ }
}
