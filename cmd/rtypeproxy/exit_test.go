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

// TestExitCountsHeldUnsent: at exit the scheduler stops before the
// sockets close, so that a datagram falling due while the proxy stops is
// counted unsent at exit, not sent and failed. The server's echo is held
// 500 ms, then its client's reader blocks on the echo's log line (the
// proxy holds a datagram before it logs it), which keeps the proxy between
// the two steps of its stop past the echo's time.
func TestExitCountsHeldUnsent(t *testing.T) {
	t.Parallel()
	srv := newMuteServer(t, "echo")
	gate := &gateWriter{match: srv.addr() + " > ", blocked: make(chan struct{}), release: make(chan struct{})}
	joined := make(chan *client, 1)
	r := startProxy(t, func(p *proxy) {
		p.log = newLogger(gate, false, p.server)
		p.joined = func(c *client) { joined <- c }
	}, "-server", srv.addr(), "-down-delay", "500ms")
	c := dialProxy(t, r.p)
	if _, err := c.Write([]byte("echo")); err != nil {
		t.Fatal(err)
	}
	cl := receive(t, joined)
	receive(t, gate.blocked) // the echo is held, and its reader busy logging it
	r.cancel()
	<-time.After(700 * time.Millisecond) // past the time the echo was due: the stop must not send it
	close(gate.release)
	r.stop(t)
	st := cl.stats[down].tally()
	if st.drops[dropSend] != 0 || st.drops[dropUnsent] != 1 {
		t.Errorf("down: send failed %d, unsent at exit %d; want 0 and 1\n%s", st.drops[dropSend], st.drops[dropUnsent], r.stderr)
	}
}
