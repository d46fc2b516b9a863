//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// OwnGroup makes cmd start in a process group of its own.
func OwnGroup(*exec.Cmd) {}

// Interrupt sends SIGINT to cmd's group.
func Interrupt(cmd *exec.Cmd) { cmd.Process.Signal(os.Interrupt) }

// Kill sends SIGKILL to cmd's group.
func Kill(cmd *exec.Cmd) { cmd.Process.Kill() }
