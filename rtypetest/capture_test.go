package rtypetest

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/pcap"
)

// fakeTB is a test whose end and failure the test decides.
type fakeTB struct {
	testing.TB
	failed   bool
	cleanups []func()
	logs     []string
}

func (f *fakeTB) Helper()                 {}
func (f *fakeTB) Name() string            { return "TestGame/lossy 20%" }
func (f *fakeTB) Failed() bool            { return f.failed }
func (f *fakeTB) Cleanup(fn func())       { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Logf(s string, a ...any) { f.logs = append(f.logs, fmt.Sprintf(s, a...)) }
func (f *fakeTB) end() {
	for _, fn := range f.cleanups {
		fn()
	}
}

// CaptureOnFailure writes its file only when the test failed, in
// $RTYPETEST_CAPTURE_DIR, and logs where.
func TestCaptureOnFailure(t *testing.T) {
	for _, failed := range []bool{false, true} {
		dir := t.TempDir()
		t.Setenv("RTYPETEST_CAPTURE_DIR", dir)
		tb := &fakeTB{TB: t, failed: failed}
		c := CaptureOnFailure(tb)
		c.add(Epoch, clientAddr(0), serverAddr, []byte("hello"))
		tb.end()
		path := filepath.Join(dir, "TestGame_lossy_20_.pcap")
		_, err := os.Stat(path)
		switch {
		case failed && err != nil:
			t.Errorf("failed test: no capture at %s (%v); logs %q", path, err, tb.logs)
		case failed && (len(tb.logs) != 1 || !strings.Contains(tb.logs[0], path)):
			t.Errorf("failed test: logs %q do not name %s", tb.logs, path)
		case !failed && (err == nil || len(tb.logs) != 0):
			t.Errorf("passing test: capture written (%v) or logged %q", err, tb.logs)
		}
	}
}

// A capture is the pcap header, then per datagram kept the record
// package pcap makes of it; past Limit nothing more is kept, and the count
// says so.
func TestCaptureFrames(t *testing.T) {
	c := &Capture{Limit: 200}
	v6a, v6b := netip.MustParseAddrPort("[2001:db8::1]:5000"), netip.MustParseAddrPort("[2001:db8::2]:4242")
	c.add(Epoch, clientAddr(0), serverAddr, []byte("abc"))
	c.add(Epoch.Add(1500000), v6a, v6b, []byte("de"))
	c.add(Epoch, clientAddr(0), serverAddr, make([]byte, 300)) // past Limit
	if kept, missed := c.Len(); kept != 2 || missed != 1 {
		t.Fatalf("kept %d, missed %d; want 2, 1", kept, missed)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	want := pcap.AppendHeader(nil)
	want = pcap.AppendRecord(want, Epoch, clientAddr(0), serverAddr, []byte("abc"))
	want = pcap.AppendRecord(want, Epoch.Add(1500000), v6a, v6b, []byte("de"))
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the capture:\n% x\nwant:\n% x", buf.Bytes(), want)
	}
}

// A capture keeps each datagram without an allocation of its own: the
// record is built in the buffer's room.
func TestCaptureAddAllocs(t *testing.T) {
	c := &Capture{}
	b := make([]byte, 200)
	c.add(Epoch, clientAddr(0), serverAddr, b)
	if n := testing.AllocsPerRun(1000, func() { c.add(Epoch, clientAddr(0), serverAddr, b) }); n != 0 {
		t.Errorf("%v allocations per datagram, want 0", n)
	}
}
