//go:build !js

package main

import (
	"context"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// connWatch closes a QUIC connection that has had no session open for
// idle: one that never asks for a session, whose sessions ended, or
// whose request never finishes its headers, a slowloris the HTTP/3
// server would wait for for ever, as the keep-alives keep QUIC alive.
type connWatch struct {
	mu       sync.Mutex
	sessions int
	idle     time.Duration
	timer    *time.Timer
}

type connWatchKey struct{}

// watchConn starts conn's watch, found by its requests in ctx.
func (g *gateway) watchConn(ctx context.Context, conn *quic.Conn) context.Context {
	w := &connWatch{idle: g.idle}
	w.timer = time.AfterFunc(g.idle, func() { conn.CloseWithError(quic.ApplicationErrorCode(http3.ErrCodeNoError), "no session") })
	context.AfterFunc(conn.Context(), func() { w.timer.Stop() })
	return context.WithValue(ctx, connWatchKey{}, w)
}

// connWatchOf returns the watch of a request's connection, or nil.
func connWatchOf(ctx context.Context) *connWatch {
	w, _ := ctx.Value(connWatchKey{}).(*connWatch)
	return w
}

// opened counts a session of the connection: the watch waits.
func (w *connWatch) opened() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sessions++
	w.timer.Stop()
}

// closed counts a session's end: with none left, the watch restarts.
func (w *connWatch) closed() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sessions--; w.sessions == 0 {
		w.timer.Reset(w.idle)
	}
}
