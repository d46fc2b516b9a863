//go:build !js

package main

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Frames come on their own, no key needed, and stop when told.
func TestTickFrames(t *testing.T) {
	msgs := make(chan tea.Msg)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tickFrames(stop, time.Millisecond, func(m tea.Msg) {
			select {
			case msgs <- m:
			case <-stop:
			}
		})
	}()
	deadline := time.After(10 * time.Second)
	for range 5 {
		select {
		case m := <-msgs:
			if _, ok := m.(frameMsg); !ok {
				t.Fatalf("got %T, want frameMsg", m)
			}
		case <-deadline:
			t.Fatal("no 5 frames within 10 s")
		}
	}
	close(stop)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("tickFrames did not stop")
	}
}
