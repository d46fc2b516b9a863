package rtypetest

import (
	"bytes"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/pcap"
)

// DefaultCaptureLimit bounds the bytes a Capture keeps; past it, datagrams
// are counted but not kept.
const DefaultCaptureLimit = 64 << 20

// Capture keeps the datagrams a Sim or a Network carried, each at its send
// time, and writes them as a classic pcap file: Ethernet frames with
// synthetic IPv4 or IPv6 and UDP headers around each datagram, the
// addresses those of the network, so that rtypedump and Wireshark (with
// tools/wireshark/rtype.lua) read it as a capture of real traffic. Its
// memory is bounded by Limit. It is safe for concurrent use.
type Capture struct {
	// Limit is how many bytes of records it keeps; 0 means
	// DefaultCaptureLimit.
	Limit int

	mu      sync.Mutex
	records bytes.Buffer
	n       int
	missed  int
}

// Len returns how many datagrams it kept, and how many it did not, past
// Limit.
func (c *Capture) Len() (kept, missed int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.missed
}

// add keeps datagram b, sent at at from → to.
func (c *Capture) add(at time.Time, from, to netip.AddrPort, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	limit := c.Limit
	if limit <= 0 {
		limit = DefaultCaptureLimit
	}
	frame := pcap.FrameLen(from, to, len(b))
	if c.records.Len()+pcap.RecordHeaderLen+frame > limit || frame > pcap.SnapLen {
		c.missed++
		return
	}
	c.records.Grow(pcap.RecordHeaderLen + frame)
	c.records.Write(pcap.AppendRecord(c.records.AvailableBuffer(), at, from, to, b))
	c.n++
}

// WriteTo writes the pcap file: its header, then every datagram kept.
func (c *Capture) WriteTo(w io.Writer) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := w.Write(pcap.AppendHeader(nil))
	if err != nil {
		return int64(n), err
	}
	m, err := w.Write(c.records.Bytes())
	return int64(n + m), err
}

// WriteFile writes the pcap file at path.
func (c *Capture) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// CaptureOnFailure returns a Capture that, when t has failed by its end,
// is written as a pcap file into $RTYPETEST_CAPTURE_DIR, or a new
// directory under the system's temporary one, the path logged: a failing
// run leaves what crossed the network for rtypedump or Wireshark. Pass it
// to Sim.Capture or Network.Capture.
func CaptureOnFailure(t testing.TB) *Capture {
	t.Helper()
	c := &Capture{}
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		dir := os.Getenv("RTYPETEST_CAPTURE_DIR")
		if dir == "" {
			var err error
			if dir, err = os.MkdirTemp("", "rtypetest-"); err != nil {
				t.Logf("rtypetest: no capture written: %v", err)
				return
			}
		}
		path := filepath.Join(dir, fileName(t.Name())+".pcap")
		if err := c.WriteFile(path); err != nil {
			t.Logf("rtypetest: no capture written: %v", err)
			return
		}
		kept, missed := c.Len()
		t.Logf("rtypetest: %d datagrams captured in %s (%d past the limit not kept); go run ./cmd/rtypedump %s", kept, path, missed, path)
	})
	return c
}

// fileName makes a test name a file name.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
}
