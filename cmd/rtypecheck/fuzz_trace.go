package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"sync"

	"github.com/rtypeproto/rtype/rtypefuzz"
)

// traceFile writes each datagram a run sends, one a line: its number,
// what it is, its bytes in hex. Two runs of one seed give the same lines
// but for what each learnt from the implementation (connection ids,
// acks), so that diff shows where they part.
type traceFile struct {
	mu  sync.Mutex
	f   *os.File
	w   *bufio.Writer
	err error
	buf []byte
}

func openTrace(path string) (*traceFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &traceFile{f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

// write is an Options.Trace.
func (t *traceFile) write(n int, what string, b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return
	}
	t.buf = strconv.AppendInt(t.buf[:0], int64(n), 10)
	t.buf = append(append(append(t.buf, '\t'), what...), '\t')
	t.buf = append(hex.AppendEncode(t.buf, b), '\n')
	_, t.err = t.w.Write(t.buf)
}

// close flushes and closes the file, and returns the first error.
func (t *traceFile) close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return errors.Join(t.err, t.w.Flush(), t.f.Close())
}

// traced sets o.Trace to write to cfg's -trace file, and returns what
// closes it; without -trace it does nothing.
func traced(cfg *fuzzConfig, o *rtypefuzz.Options) (func() error, error) {
	if cfg.trace == "" {
		return func() error { return nil }, nil
	}
	t, err := openTrace(cfg.trace)
	if err != nil {
		return nil, err
	}
	o.Trace = t.write
	return t.close, nil
}
