//go:build !js

package main

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// tickFrames sends a frameMsg every interval until stop is closed, so
// that frames, each with its Input (§7.1), never wait for a key. A tick
// the model is too busy to take waits in the ticker, one at most: a late
// frame is made up at once rather than lost.
func tickFrames(stop <-chan struct{}, interval time.Duration, send func(tea.Msg)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			send(frameMsg{})
		}
	}
}
