//go:build !js

package main

import (
	"log/slog"
	"time"
)

// dropLogEvery is how often the log sums the drops and refusals, as the
// host's -log does: a line only when some happened.
const dropLogEvery = 10 * time.Second

// logDrops logs, every dropLogEvery until the gateway stops, the drops by
// reason and the refused sessions since the line before.
func (g *gateway) logDrops(every time.Duration) {
	var last [numDrops + numRefusals]uint64
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-t.C:
		}
		var attrs []any
		for i, k := range dropKeys {
			n := g.total.drops[i].Load()
			if d := n - last[i]; d > 0 {
				attrs = append(attrs, slog.Uint64(k, d))
			}
			last[i] = n
		}
		for i, k := range refusalKeys {
			n := g.total.refused[i].Load()
			if d := n - last[numDrops+i]; d > 0 {
				attrs = append(attrs, slog.Uint64("refused-"+k, d))
			}
			last[numDrops+i] = n
		}
		if len(attrs) > 0 {
			g.log.Info("dropped", attrs...)
		}
	}
}
