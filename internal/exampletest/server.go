package exampletest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Deadline bounds every wait of this package: for the server to listen,
// to stop, or for a line of its log.
const Deadline = 10 * time.Second

// Server is one run of the example server and what it logged.
type Server struct {
	// Addr is the UDP address it listens on, as it logged it.
	Addr string

	mu  sync.Mutex
	log bytes.Buffer

	cmd  *exec.Cmd
	done chan struct{} // closed once the log is read to its end
	once sync.Once
}

// listening matches the example server's log line with its address.
var listening = regexp.MustCompile(`msg=listening addr=(\S+)`)

// StartServer starts bin, a build of ./examples/server, on a free loopback
// port with its log at level info and any further args, and waits for it
// to listen. When the test ends it is interrupted, and killed if it has not
// stopped within Deadline.
func StartServer(t testing.TB, bin string, args ...string) *Server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-log", "info"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	s := &Server{cmd: cmd, done: done}
	addr := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			s.mu.Lock()
			s.log.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil && !sent {
				addr <- m[1]
				sent = true
			}
		}
	}()
	t.Cleanup(s.Stop)
	select {
	case s.Addr = <-addr:
		return s
	case <-done:
		t.Fatalf("the example server stopped before listening:\n%s", s.Log())
	case <-time.After(Deadline):
		t.Fatalf("the example server did not log its address within %v:\n%s", Deadline, s.Log())
	}
	return nil
}

// stop interrupts the server, as Ctrl-C would, and kills it if it has not
// stopped within Deadline.
func stop(cmd *exec.Cmd, logDone <-chan struct{}) {
	_ = cmd.Process.Signal(os.Interrupt)
	stopped := make(chan struct{})
	go func() { <-logDone; _ = cmd.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(Deadline):
		_ = cmd.Process.Kill()
		<-stopped
	}
}

// Stop interrupts the server, as Ctrl-C would, and waits for it to exit,
// killing it if it has not within Deadline; the test's end stops it too.
func (s *Server) Stop() { s.once.Do(func() { stop(s.cmd, s.done) }) }

// Log returns what the server logged so far.
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// WaitLog waits, Deadline at most, until the server's log holds want n
// times, and fails the test otherwise; what says what the test waits for.
func (s *Server) WaitLog(t testing.TB, what, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(Deadline)
	for time.Now().Before(deadline) {
		if strings.Count(s.Log(), want) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not a wait
	}
	t.Fatalf("%s: %q not %d times in the server's log within %v:\n%s", what, want, n, Deadline, s.Log())
}
