//go:build !js

package main

import (
	"os"
	"os/exec"
	"time"

	"github.com/rtypeproto/rtype/internal/proc"
)

// chromium is a headless Chromium showing the page: a player with no
// screen, for rtypecheck client and scripted runs.
type chromium struct {
	cmd *exec.Cmd
	dir string
}

// startChromium opens url in a headless Chromium with a profile of its own.
func startChromium(url string) (*chromium, error) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "rtypeweb-chromium-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+dir, url)
	proc.OwnGroup(cmd) // its helpers with it, to stop them all
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &chromium{cmd: cmd, dir: dir}, nil
}

// stop ends Chromium, within a second, and then any helper process of
// its group still writing into its profile, which it removes.
func (c *chromium) stop() {
	proc.Interrupt(c.cmd)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	proc.Kill(c.cmd)
	<-done
	os.RemoveAll(c.dir)
}
