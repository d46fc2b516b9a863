package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// runReport is -report: it reads the capture or the traces named, as far
// as they go, and writes the report of what it read; an input that broke
// off is named on stderr and exits 1, its report written all the same.
func runReport(o options, stdin io.Reader, stderr io.Writer) int {
	out, err := os.Create(o.report)
	if err != nil {
		fmt.Fprintln(stderr, "rtypedump: -report:", err)
		return exitUsage
	}
	defer out.Close()
	m := newReportModel(o.name)
	var readErr error
	none := false
	if traces, ok := traceFiles(o.name); ok {
		m.traces = true
		readErr = readTraces(m, traces)
		if len(m.clients) == 0 && readErr == nil {
			fmt.Fprintf(stderr, "rtypedump: no R-Type client in %s: its traces hold no datagram\n", m.source)
			return exitInput
		}
	} else {
		in := stdin
		if o.name != "" && o.name != "-" {
			f, err := os.Open(o.name)
			if err != nil {
				fmt.Fprintln(stderr, "rtypedump:", err)
				return exitInput
			}
			defer f.Close()
			in = f
		} else {
			m.source = "stdin"
		}
		d := newDumper(o, io.Discard)
		d.report = m
		readErr = d.captureInput(in)
		none = d.noClient(stderr, m.source, readErr)
	}
	if none {
		// A report of no client is an error, not an empty success.
		out.Close()
		os.Remove(o.report)
		if readErr != nil {
			fmt.Fprintf(stderr, "rtypedump: %s: %v\n", m.source, readErr)
		}
		return exitInput
	}
	if err := errors.Join(writeReport(out, m), out.Close()); err != nil {
		fmt.Fprintln(stderr, "rtypedump: -report:", err)
		return exitInput
	}
	if readErr != nil {
		fmt.Fprintf(stderr, "rtypedump: %s: %v (the report covers what was read)\n", m.source, readErr)
		return exitInput
	}
	return exitOK
}

// traceFiles returns the .sqlog traces name stands for: itself, or those
// under it when it is a directory; false when it is neither.
func traceFiles(name string) ([]string, bool) {
	if strings.HasSuffix(name, ".sqlog") {
		return []string{name}, true
	}
	st, err := os.Stat(name)
	if err != nil || !st.IsDir() {
		return nil, false
	}
	var paths []string
	_ = filepath.WalkDir(name, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".sqlog") {
			paths = append(paths, p)
		}
		return nil
	})
	return paths, true
}
