package main

import (
	"context"
	"net/netip"
	"regexp"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/bot"
)

// botClient starts one example bot in this process for each case; quitting
// cancels its context, which makes it send Disconnect reason 1 (§7.3).
func botClient(cfg func(*bot.Config)) conformance.Client {
	return func(_ context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
		c := bot.Config{Server: server, Name: "bot-1"}
		if cfg != nil {
			cfg(&c)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			bot.New(c).Run(ctx)
		}()
		return func() { cancel(); <-done }, done, nil
	}
}

// TestConformance runs the suite's cases of Welcome and Rejected (§4.3,
// §4.4) and the first packet's sequence (§5.2) against the example bot on
// real sockets, so that UDP stays tested in client mode; TestConformanceInMemory runs every
// case in virtual time, §4.2's seconds of Hellos among them.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets, in wall time")
	}
	t.Parallel()
	conformance.TestClient(t, botClient(nil), conformance.Options{Run: regexp.MustCompile(`^(4\.3/[12]|4\.4/1|5\.2/1)$`), Strict: true})
}
