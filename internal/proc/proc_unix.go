//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// OwnGroup makes cmd start in a process group of its own.
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Interrupt sends SIGINT to cmd's group.
func Interrupt(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }

// Kill sends SIGKILL to cmd's group.
func Kill(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
