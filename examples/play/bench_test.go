//go:build !js

package main

import (
	"fmt"
	"testing"

	"github.com/rtypeproto/rtype/session"
)

// One frame of the model, at two terminal sizes: the Input sent, the
// playfield rendered and turned into the view's styled text. The render
// alone is the baseline.
func BenchmarkModelFrame(b *testing.B) {
	for _, size := range [][2]int{{100, 30}, {200, 60}} {
		w := newWorld(b, session.ServerConfig{})
		p := w.join(size[0], size[1])
		for range 120 {
			w.step()
		}
		b.Run(fmt.Sprintf("frame-%dx%d", size[0], size[1]), func(b *testing.B) {
			for b.Loop() {
				p.update(frameMsg{})
				p.out = p.out[:0]
			}
		})
		b.Run(fmt.Sprintf("draw-%dx%d", size[0], size[1]), func(b *testing.B) {
			for b.Loop() {
				p.m.draw()
			}
		})
	}
}
