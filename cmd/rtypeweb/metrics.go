//go:build !js

package main

import "sync/atomic"

// Drop reasons of the gateway, stable names for logs and metrics.
const (
	dropTooLarge      = iota // over 548 bytes, either way (§2.2)
	dropRate                 // over the browser session's datagram rate (§12)
	dropNotFromServer        // a datagram on a session's socket from elsewhere (§3)
	dropSendFailed           // the socket or the session refused it
	dropBacklog              // the session's queue toward the browser was full
	numDrops
)

// dropKeys names the drop reasons, by index.
var dropKeys = [numDrops]string{"too-large", "rate", "not-from-server", "send-failed", "backlog"}

// Reasons a browser's session request is refused or a session ends.
const (
	refuseFull    = iota // -max-sessions are open
	refuseOrigin         // the page's origin is not allowed
	refuseRoute          // no such path or server index
	refuseUpgrade        // not a WebTransport request the library takes
	numRefusals
)

var refusalKeys = [numRefusals]string{"full", "origin", "route", "upgrade"}

// counters are the gateway's figures, read without locks by the metrics,
// the log and each page's HUD.
type counters struct {
	open, sessions             atomic.Int64
	refused                    [numRefusals]atomic.Uint64
	upDatagrams, downDatagrams atomic.Uint64 // up: browser to server
	upBytes, downBytes         atomic.Uint64
	drops                      [numDrops]atomic.Uint64
	idleClosed                 atomic.Uint64
}

// sessionCounters are one session's figures, for its HUD and its log line.
type sessionCounters struct {
	up, down atomic.Uint64
	drops    [numDrops]atomic.Uint64
}

func (s *sessionCounters) dropped() uint64 {
	var n uint64
	for i := range s.drops {
		n += s.drops[i].Load()
	}
	return n
}
