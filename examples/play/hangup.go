//go:build !js

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// quitOnHangup calls quit once the terminal hangs up (SIGHUP: its window
// closed, its ssh connection dropped), which bubbletea does not watch for,
// so that play ends as on q and sends Disconnect reason 1 (§7.3) rather
// than die silent and leave the server to time its session out (§13.3).
// stop undoes it.
func quitOnHangup(quit func()) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-hup:
			quit()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}
