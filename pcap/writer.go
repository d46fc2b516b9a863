package pcap

import (
	"bufio"
	"errors"
	"io"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// Writer streams records to a file. It is safe for concurrent use: the
// hooks of several bindings may share one.
type Writer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	c    io.Closer // the file Create opened, nil for NewWriter's
	rec  []byte
	err  error
	done bool
}

// NewWriter writes the file header to w and returns a Writer of records
// to it; Close flushes them, and leaves w open.
func NewWriter(w io.Writer) (*Writer, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.Write(AppendHeader(nil)); err != nil {
		return nil, err
	}
	return &Writer{w: bw}, nil
}

// Create creates the capture file at path, failing at once if it cannot.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.c = f
	return w, nil
}

// ErrClosed is what Write returns after Close.
var ErrClosed = errors.New("pcap: writer closed")

// Write records datagram b, sent from → to at at. After an error, every
// later Write returns it.
func (w *Writer) Write(at time.Time, from, to netip.AddrPort, b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	w.rec = AppendRecord(w.rec[:0], at, from, to, b)
	_, w.err = w.w.Write(w.rec)
	return w.err
}

// Err returns the first error a Write met, nil if none.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close flushes the records, closes the file Create opened, and returns
// the first error met.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return ErrClosed
	}
	w.done = true
	err := errors.Join(w.err, w.w.Flush())
	if w.c != nil {
		err = errors.Join(err, w.c.Close())
	}
	return err
}

// Hooks returns session hooks that record, at the time of the call, every
// datagram a binding receives and sends at local, its socket's address,
// that next's hooks (nil: none) pass: set them in session.RunOptions. A
// datagram next drops, as a simulated lossy link does, is not recorded:
// the capture is what the session got and sent. An unspecified local
// address (":4242") is recorded as the loopback of the
// peer's family when the peer is on loopback, as the system would have
// answered from it.
func (w *Writer) Hooks(local netip.AddrPort, next *session.Hooks) *session.Hooks {
	var nr, ns func(netip.AddrPort, []byte) bool
	if next != nil {
		nr, ns = next.OnReceive, next.OnSend
	}
	return &session.Hooks{
		OnReceive: func(from netip.AddrPort, b []byte) bool {
			if nr != nil && !nr(from, b) {
				return false
			}
			_ = w.Write(time.Now(), from, localFor(local, from), b)
			return true
		},
		OnSend: func(to netip.AddrPort, b []byte) bool {
			if ns != nil && !ns(to, b) {
				return false
			}
			_ = w.Write(time.Now(), localFor(local, to), to, b)
			return true
		},
	}
}

// localFor is the address local answers peer from.
func localFor(local, peer netip.AddrPort) netip.AddrPort {
	if !local.Addr().IsUnspecified() && local.Addr().IsValid() {
		return local
	}
	a := netip.IPv6Loopback()
	if peer.Addr().Unmap().Is4() {
		a = netip.AddrFrom4([4]byte{127, 0, 0, 1})
	}
	if !peer.Addr().IsLoopback() && !peer.Addr().Unmap().IsLoopback() {
		a = netip.IPv4Unspecified()
		if !peer.Addr().Unmap().Is4() {
			a = netip.IPv6Unspecified()
		}
	}
	return netip.AddrPortFrom(a, local.Port())
}
