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

// TestConformance runs the client suite against the example bot, on real
// sockets: the bot opens its own UDP socket, so its run stays on the
// system's network, and keeps UDP tested in client mode. Every MUST case
// passes. 4.2/2, ten seconds of Hellos to a server that never answers
// until the session client gives up, is left to TestConformanceInMemory,
// which runs it against the bot's session configuration in virtual time.
func TestConformance(t *testing.T) {
	t.Parallel()
	conformance.TestClient(t, botClient(nil), conformance.Options{Skip: regexp.MustCompile(`^4\.2/2$`)})
}
