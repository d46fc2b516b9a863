package rtypefuzz

import (
	"context"
	"io"
	"net/netip"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/proc"
)

// ClientCommand returns the ClientStart of a client run as name with
// args, every "{addr}" in them replaced by the fuzzer's address, as
// rtypecheck's client mode does. Its end is cmd.Wait's: nil for status 0,
// an *exec.ExitError for a non-zero status or a signal. stop sends SIGINT,
// which a client takes as its player quitting, then SIGKILL after
// conformance.QuitGrace; the command runs in a process group of its own,
// so that a wrapper such as "go run" passes the signal on. Its output goes
// to out, or nowhere.
func ClientCommand(out io.Writer, name string, args ...string) ClientStart {
	return func(_ context.Context, server netip.AddrPort) (<-chan error, func(), error) {
		p, err := proc.Start(out, map[string]string{"addr": server.String()}, name, args...)
		if err != nil {
			return nil, nil, err
		}
		return ended(p), func() { p.Stop(conformance.QuitGrace) }, nil
	}
}
