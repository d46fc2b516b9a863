package planted

import (
	"context"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// Client timing: a frame every 1/60 s (§7.1), a Hello and a Ping every
// second (§4.2, §7.2), giving up after 10 s (§4.2).
const (
	frameInterval = time.Second / 60
	helloInterval = time.Second
	pingInterval  = time.Second
	giveUp        = 10 * time.Second
	serverSilence = 10 * time.Second
)

// Play runs the planted client of server on conn until ctx is done, and
// then closes conn. It sends Hello every second until Welcome (§4.2), then
// every 1/60 s an Input with acks (§5.1, §7.1), a Ping every second
// (§7.2), and a QueryEntity for each id a Snapshot lists that it does not
// know (§7.4); it keeps the entities the server describes (§8).
//
// It returns nil once ctx is done, after sending Disconnect (§7.3), or
// when conn was closed; ErrGaveUp, ErrRejected or ErrTimedOut when the
// session could not go on. On its planted bug it returns a *Crash,
// wrapping ErrCrashed: the process would have died.
func Play(ctx context.Context, conn conformance.Conn, server netip.AddrPort, bug ClientBug) error {
	r := startReader(conn)
	defer r.stop()
	c := newClient(conn, server, bug, time.Now())
	return c.run(ctx, r)
}

// run is the client's loop: datagrams as they come, a frame every 1/60 s.
func (c *client) run(ctx context.Context, r *reader) error {
	t := time.NewTicker(frameInterval)
	defer t.Stop()
	c.hello(time.Now())
	for c.err == nil {
		select {
		case <-ctx.Done():
			c.quit()
			return nil
		case <-r.done:
			return nil
		case d := <-r.in:
			if err := protect(func() { c.receive(d.b, d.from, time.Now()) }); err != nil {
				return err
			}
		case now := <-t.C:
			c.frame(now)
		}
	}
	return c.err
}
