package proc

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Process is a command started by Start.
type Process struct {
	cmd *exec.Cmd
	// Done is closed once the process ended; Err then says how: nil for
	// status 0, an *exec.ExitError for another status or a signal; At
	// when.
	Done <-chan struct{}
	Err  error
	At   time.Time
}

// Start starts name with args, each "{key}" of subst in them replaced by
// its value, in a process group of its own, its output to out (nowhere
// when nil).
func Start(out io.Writer, subst map[string]string, name string, args ...string) (*Process, error) {
	argv := make([]string, len(args))
	for i, a := range args {
		for k, v := range subst {
			a = strings.ReplaceAll(a, "{"+k+"}", v)
		}
		argv[i] = a
	}
	cmd := exec.Command(name, argv...)
	if out != nil {
		cmd.Stdout, cmd.Stderr = out, out
	}
	OwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	p := &Process{cmd: cmd, Done: done}
	go func() {
		p.Err = cmd.Wait()
		p.At = time.Now()
		close(done)
	}()
	return p, nil
}

// Stop sends SIGINT to the process's group, then SIGKILL after grace, and
// waits for its end.
func (p *Process) Stop(grace time.Duration) {
	Interrupt(p.cmd)
	select {
	case <-p.Done:
		return
	case <-time.After(grace):
	}
	Kill(p.cmd)
	<-p.Done
}

// State is the process's end state, nil before Done is closed.
func (p *Process) State() *os.ProcessState { return p.cmd.ProcessState }

// Pid is the process's id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }
