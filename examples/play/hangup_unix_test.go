//go:build !js && unix

package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// A SIGHUP, the terminal's hangup, quits the program as q does.
func TestQuitOnHangup(t *testing.T) {
	quit := make(chan struct{})
	stop := quitOnHangup(func() { close(quit) })
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-quit:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGHUP did not quit within 5 s")
	}
}
