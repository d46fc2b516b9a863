package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// cancelWriter collects what the demo prints and cancels its context once
// want has appeared n times: the bots have played for a while.
type cancelWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	want   string
	n      int
	cancel context.CancelFunc
}

func (w *cancelWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if strings.Count(w.buf.String(), w.want) >= w.n {
		w.cancel()
	}
	return len(b), nil
}

func (w *cancelWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

var interruptedLine = regexp.MustCompile(`\ninterrupted after ([0-9.]+)s of 10s\n`)

// Interrupted (Ctrl-C) after about a second of a 10 s game, the demo says
// so and how long the bots played, claims no "all … played", and exits 1,
// with -watch and without.
func TestDemoInterrupted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string // printed once the bots play: at 1.0s, or in each frame
		n    int
	}{
		{"progress", []string{"-watch=false"}, " 2/2 playing", 1},
		{"watch", []string{"-watch"}, "bot-1 playing", 25}, // 25 frames a second
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &cancelWriter{want: tt.want, n: tt.n, cancel: cancel}
			var errw bytes.Buffer
			args := append([]string{"-duration", "10s", "-n", "2"}, tt.args...)
			code := run(ctx, args, out, &errw)
			text := out.String()
			if code != 1 {
				t.Errorf("exit code %d after an interrupt, want 1", code)
			}
			if strings.Contains(text, "bots played") || strings.Contains(text, "did not play to the end") {
				t.Errorf("the summary claims the game ran its course:\n%q", text)
			}
			m := interruptedLine.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no %q line:\n%q\nstderr:\n%s", interruptedLine, text, errw.String())
			}
			if s, _ := strconv.ParseFloat(m[1], 64); s <= 0 || s >= 10 {
				t.Errorf("interrupted after %ss of 10s", m[1])
			}
		})
	}
}
