package qlog

import (
	"bufio"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"github.com/rtypeproto/rtype/session"
)

// Vantage is where a trace was taken: the qlog vantage point type.
type Vantage string

// Vantage points.
const (
	Server  Vantage = "server"
	Client  Vantage = "client"
	Network Vantage = "network"
)

// MaxFiles bounds the files a Dir opens: a server flooded with Hellos
// from many addresses gets no more than this many traces; events of
// further peers are counted in Skipped, not written.
const MaxFiles = 256

// ErrClosed is returned by Close after the first.
var ErrClosed = errors.New("qlog: closed")

// Dir writes one trace file per peer address into a directory.
type Dir struct {
	path    string
	vantage Vantage
	files   map[netip.AddrPort]*file
	err     error // the first write error
	closed  bool
	// Skipped counts the events not written: of peers past MaxFiles, or
	// after a write error.
	Skipped uint64
}

// NewDir returns a Dir writing into path, created if missing, as seen
// from vantage. It fails at once, not at the first event, when path
// cannot be created or written.
func NewDir(path string, vantage Vantage) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	probe, err := os.CreateTemp(path, ".probe-*")
	if err != nil {
		return nil, err
	}
	probe.Close()
	os.Remove(probe.Name())
	return &Dir{path: path, vantage: vantage, files: map[netip.AddrPort]*file{}}, nil
}

// Name returns the file name of peer's trace: the vantage and the
// address, "server-192.0.2.7_50000.sqlog", "client-[2001:db8::1]_4242.sqlog".
func Name(v Vantage, peer netip.AddrPort) string {
	a := strings.ReplaceAll(peer.String(), ":", "_")
	return fmt.Sprintf("%s-%s.sqlog", v, a)
}

// Trace writes e into its peer's file, opened at the peer's first event.
func (d *Dir) Trace(e *session.TraceEvent) {
	f := d.files[e.Peer]
	if f == nil {
		if d.closed || d.err != nil || len(d.files) >= MaxFiles {
			d.Skipped++
			return
		}
		if f = d.open(e); f == nil {
			d.Skipped++
			return
		}
	}
	if d.err != nil {
		d.Skipped++
		return
	}
	if err := f.event(e); err != nil {
		d.err = err
	}
}

func (d *Dir) open(e *session.TraceEvent) *file {
	osf, err := os.Create(filepath.Join(d.path, Name(d.vantage, e.Peer)))
	if err != nil {
		d.err = err
		return nil
	}
	f := &file{f: osf, w: bufio.NewWriterSize(osf, 32<<10), start: e.Time}
	if err := f.header(d.vantage, e.Peer); err != nil {
		d.err = err
	}
	d.files[e.Peer] = f
	return f
}

// Err returns the first error writing a trace, nil if none.
func (d *Dir) Err() error { return d.err }

// Close flushes and closes every file, and returns the first error a
// trace met, if any.
func (d *Dir) Close() error {
	if d.closed {
		return ErrClosed
	}
	d.closed = true
	err := d.err
	for _, f := range d.files {
		err = errors.Join(err, f.close())
	}
	return err
}
