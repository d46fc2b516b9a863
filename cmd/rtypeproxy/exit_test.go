package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// gateWriter is a log output that blocks the first write containing match
// until release is closed, telling blocked when it does.
type gateWriter struct {
	match            string
	blocked, release chan struct{}
	once             sync.Once
	mu               sync.Mutex
	out              bytes.Buffer
}

func (g *gateWriter) Write(b []byte) (int, error) {
	if strings.Contains(string(b), g.match) {
		g.once.Do(func() {
			close(g.blocked)
			<-g.release
		})
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.out.Write(b)
}

// TestExitCountsHeldUnsent: at exit the scheduler stops before the client
// sockets close, so that a datagram falling due while the proxy stops is
// counted unsent at exit, not sent and failed. A client's reader kept busy
// (its log line blocked) holds the proxy between the two steps past the
// held datagram's time.
func TestExitCountsHeldUnsent(t *testing.T) {
	srv := newMuteServer(t, "down")
	gate := &gateWriter{match: srv.addr() + " > ", blocked: make(chan struct{}), release: make(chan struct{})}
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) {
		p.log = newLogger(gate, false, p.server)
		p.joined = func(c *client) { joined <- c }
	}, "-server", srv.addr(), "-up-delay", "200ms")
	c := dialProxy(t, r.p)
	if _, err := c.Write([]byte("down")); err != nil {
		t.Fatal(err)
	}
	cl := receive(t, joined)
	srv.next(t)
	if _, err := c.Write([]byte("late")); err != nil { // due 200 ms on, while the proxy stops
		t.Fatal(err)
	}
	receive(t, gate.blocked) // the echo's log line: the reader is busy
	r.cancel()
	<-time.After(400 * time.Millisecond) // past the time "late" was due
	close(gate.release)
	r.stop(t)
	st := cl.stats[up].tally()
	if st.drops[dropSend] != 0 || st.drops[dropUnsent] != 1 {
		t.Errorf("up: send failed %d, unsent at exit %d; want 0 and 1\n%s", st.drops[dropSend], st.drops[dropUnsent], r.stderr)
	}
}
