package planted

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// tickInterval is the server's tick: about 60 per second (§10).
const tickInterval = time.Second / 60

// Serve runs the planted server on conn until ctx is done or conn is
// closed, and then closes conn. It answers Hello with Welcome (§4),
// numbers and acknowledges its packets (§5), answers Ping with Pong
// (§7.2), spawns a ship per player, 4 at most (§8.2, §10), and sends a
// Snapshot every 3 ticks at 60 ticks a second (§8.1).
//
// It returns nil when ctx is done or conn closed. On its planted bug it
// fails as a native process would: a panic returns a *Crash, wrapping
// ErrCrashed, and the socket closes with it; a hang stops the loop, which
// reads and answers nothing more, until ctx is done, and then returns
// ErrHung.
func Serve(ctx context.Context, conn conformance.Conn, bug Bug) error {
	r := startReader(conn)
	defer r.stop()
	s := newServer(ctx, conn, bug, time.Now())
	return s.run(r)
}

// run is the server's loop: datagrams as they come, a tick every 1/60 s.
func (s *server) run(r *reader) error {
	t := time.NewTicker(tickInterval)
	defer t.Stop()
	for {
		var err error
		select {
		case <-s.ctx.Done():
			return nil
		case <-r.done:
			return nil
		case d := <-r.in:
			err = protect(func() { s.receive(d.b, d.from, time.Now()) })
		case now := <-t.C:
			err = protect(func() { s.tick(now) })
		}
		if err != nil {
			return err
		}
	}
}

// protect runs f and returns the panic it raised, if any, as a *Crash:
// where a native process dies; or ErrHung for a hung loop let go.
func protect(f func()) (err error) {
	defer func() {
		switch v := recover(); v.(type) {
		case nil:
		case hangUp:
			err = ErrHung
		default:
			err = &Crash{Value: v, Stack: debug.Stack()}
		}
	}()
	f()
	return nil
}
