//go:build !linux

package main

import "net"

// readiness has no epoll here: every bot is read every frame.
type readiness struct{}

func newReadiness() *readiness { return nil }

func (r *readiness) add(*net.UDPConn, int) error { return nil }

func (r *readiness) poll([]bool) {}

func (r *readiness) close() {}
