package conformance

import (
	"context"
	"io"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/proc"
)

// QuitGrace is how long a command started by [Command] has to end after
// SIGINT before it is killed.
const QuitGrace = 3 * time.Second

// Command returns a [Client] that runs name with args, every "{addr}" in
// them replaced by the scripted server's address, and quits it with
// SIGINT, which a client takes as its player quitting, then SIGKILL after
// QuitGrace. The command runs in a process group of its own, so that a
// wrapper such as "go run" passes the signal on. Its output goes to out,
// or nowhere if out is nil.
func Command(out io.Writer, name string, args ...string) Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		p, err := proc.Start(out, map[string]string{"addr": server.String()}, name, args...)
		if err != nil {
			return nil, nil, err
		}
		done := make(chan struct{})
		end := &procEnd{}
		procEnds.Store((<-chan struct{})(done), end)
		go func() {
			<-p.Done
			end.at, end.state = p.At, p.State()
			close(done)
		}()
		return func() { p.Stop(QuitGrace); <-done }, done, nil
	}
}
