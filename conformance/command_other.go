//go:build !unix

package conformance

import (
	"os"
	"os/exec"
)

func ownGroup(*exec.Cmd) {}

func interrupt(cmd *exec.Cmd) { cmd.Process.Signal(os.Interrupt) }

func kill(cmd *exec.Cmd) { cmd.Process.Kill() }
