package qlog

import (
	"bufio"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
	f := d.fileFor(e.Peer, e.Time)
	if f == nil || d.err != nil {
		d.Skipped++
		return
	}
	d.err = f.event(e)
}

// Datagram writes a datagram seen on the network between the server and
// client, the view of a Network Dir (rtypedump -qlog): the trace of client
// is as the client saw the network, so a datagram toServer is
// rtype:packet_sent and one from the server rtype:packet_received, unless
// its receiver drops it (dropKey not empty, rtypedump's key of the rule):
// then rtype:packet_dropped, with the receiver named.
func (d *Dir) Datagram(at time.Time, client netip.AddrPort, toServer bool, b []byte, dropKey string) {
	f := d.fileFor(client, at)
	if f == nil || d.err != nil {
		d.Skipped++
		return
	}
	kind := session.TracePacketReceived
	if toServer {
		kind = session.TracePacketSent
	}
	if dropKey == "" {
		d.err = f.event(&session.TraceEvent{Kind: kind, Time: at, Peer: client, Datagram: b})
		return
	}
	receiver := "client"
	if toServer {
		receiver = "server"
	}
	d.err = f.write(at, session.TracePacketDropped, func(w []byte) []byte {
		w = append(w, `{"reason":`...)
		w = appendString(w, dropKey)
		w = append(w, `,"receiver":`...)
		w = appendString(w, receiver)
		w = append(w, `,"length":`...)
		w = strconv.AppendInt(w, int64(len(b)), 10)
		return append(w, '}')
	})
}

// fileFor returns peer's file, opened at its first event at at; nil when
// no file may be opened.
func (d *Dir) fileFor(peer netip.AddrPort, at time.Time) *file {
	if f := d.files[peer]; f != nil {
		return f
	}
	if d.closed || d.err != nil || len(d.files) >= MaxFiles {
		return nil
	}
	osf, err := os.Create(filepath.Join(d.path, Name(d.vantage, peer)))
	if err != nil {
		d.err = err
		return nil
	}
	f := &file{f: osf, w: bufio.NewWriterSize(osf, 32<<10), start: at}
	if err := f.header(d.vantage, peer); err != nil {
		d.err = err
	}
	d.files[peer] = f
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
