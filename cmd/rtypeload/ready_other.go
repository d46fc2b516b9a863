//go:build !linux

package main

import "github.com/rtypeproto/rtype/internal/mmsg"

// readiness has no epoll here: every bot is read every frame.
type readiness struct{}

func newReadiness() *readiness { return nil }

func (r *readiness) add(*mmsg.Conn, int) error { return nil }

func (r *readiness) poll([]bool) {}

func (r *readiness) close() {}

func setReadBuffer(uintptr, int) {}
