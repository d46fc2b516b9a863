package main

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/rtypeproto/rtype/internal/termwidth"
)

// noteWriter writes rtypecheck's own lines, and client mode's prompts, to
// stderr: each line wrapped at its spaces to stderr's width, the lines
// that go on indented by two.
type noteWriter struct {
	w     io.Writer
	width int
	mu    sync.Mutex
	buf   []byte
}

func newNoteWriter(stderr io.Writer) *noteWriter {
	return &noteWriter{w: stderr, width: termwidth.Layout(termwidth.Width(stderr))}
}

// Write takes any part of a line; each line is written once complete.
func (n *noteWriter) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.buf = append(n.buf, p...)
	for {
		i := bytes.IndexByte(n.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(n.buf[:i])
		n.buf = n.buf[i+1:]
		out := strings.Join(termwidth.Wrap(line, n.width, "", "  "), "\n") + "\n"
		if _, err := io.WriteString(n.w, out); err != nil {
			return len(p), err
		}
	}
}
