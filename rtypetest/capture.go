package rtypetest

import (
	"bytes"
	"encoding/binary"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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

// pcap's constants: the classic file format, microsecond timestamps, and
// Ethernet as the link type.
const (
	pcapMagic    = 0xa1b2c3d4
	linkEthernet = 1
	snapLen      = 65535
)

// add keeps datagram b, sent at at from → to.
func (c *Capture) add(at time.Time, from, to netip.AddrPort, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	limit := c.Limit
	if limit <= 0 {
		limit = DefaultCaptureLimit
	}
	frame := frameLen(from, to, len(b))
	if c.records.Len()+16+frame > limit || frame > snapLen {
		c.missed++
		return
	}
	var hdr [16]byte
	us := at.UnixMicro()
	binary.LittleEndian.PutUint32(hdr[0:], uint32(us/1e6))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(us%1e6))
	binary.LittleEndian.PutUint32(hdr[8:], uint32(frame))
	binary.LittleEndian.PutUint32(hdr[12:], uint32(frame))
	c.records.Write(hdr[:])
	c.records.Write(appendFrame(make([]byte, 0, frame), from, to, b))
	c.n++
}

// WriteTo writes the pcap file: its header, then every datagram kept.
func (c *Capture) WriteTo(w io.Writer) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var hdr [24]byte
	binary.LittleEndian.PutUint32(hdr[0:], pcapMagic)
	binary.LittleEndian.PutUint16(hdr[4:], 2)
	binary.LittleEndian.PutUint16(hdr[6:], 4)
	binary.LittleEndian.PutUint32(hdr[16:], snapLen)
	binary.LittleEndian.PutUint32(hdr[20:], linkEthernet)
	n, err := w.Write(hdr[:])
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

// frameLen is the length of the Ethernet frame carrying n bytes of UDP
// payload from → to: over IPv4 when both are IPv4 addresses, else IPv6.
func frameLen(from, to netip.AddrPort, n int) int {
	if from.Addr().Is4() && to.Addr().Is4() {
		return 14 + 20 + 8 + n
	}
	return 14 + 40 + 8 + n
}

// appendFrame appends the Ethernet frame of datagram b, from → to: locally
// administered MAC addresses, an IPv4 header with its checksum (or IPv6),
// and a UDP header (its checksum 0 over IPv4, where it is optional, and
// computed over IPv6, where it is not).
func appendFrame(f []byte, from, to netip.AddrPort, b []byte) []byte {
	v4 := from.Addr().Is4() && to.Addr().Is4()
	f = append(f, 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1)
	udpLen := 8 + len(b)
	if v4 {
		f = append(f, 0x08, 0x00)
		ip := len(f)
		f = append(f, 0x45, 0)
		f = binary.BigEndian.AppendUint16(f, uint16(20+udpLen))
		f = append(f, 0, 0, 0x40, 0, 64, 17, 0, 0) // id 0, DF, TTL 64, UDP
		s, d := from.Addr().As4(), to.Addr().As4()
		f = append(f, s[:]...)
		f = append(f, d[:]...)
		binary.BigEndian.PutUint16(f[ip+10:], checksum(f[ip:ip+20], 0))
	} else {
		f = append(f, 0x86, 0xdd, 0x60, 0, 0, 0)
		f = binary.BigEndian.AppendUint16(f, uint16(udpLen))
		f = append(f, 17, 64)
		s, d := from.Addr().As16(), to.Addr().As16()
		f = append(f, s[:]...)
		f = append(f, d[:]...)
	}
	u := len(f)
	f = binary.BigEndian.AppendUint16(f, from.Port())
	f = binary.BigEndian.AppendUint16(f, to.Port())
	f = binary.BigEndian.AppendUint16(f, uint16(udpLen))
	f = append(f, 0, 0)
	f = append(f, b...)
	if !v4 {
		s, d := from.Addr().As16(), to.Addr().As16()
		var pseudo uint32
		for i := 0; i < 16; i += 2 {
			pseudo += uint32(s[i])<<8 | uint32(s[i+1]) + uint32(d[i])<<8 | uint32(d[i+1])
		}
		pseudo += uint32(udpLen) + 17
		sum := checksum(f[u:], pseudo)
		if sum == 0 {
			sum = 0xffff
		}
		binary.BigEndian.PutUint16(f[u+6:], sum)
	}
	return f
}

// checksum is the Internet checksum of b (RFC 1071) with partial sum start.
func checksum(b []byte, start uint32) uint16 {
	sum := start
	for i := 0; i+1 < len(b); i += 2 {
		sum += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		sum += uint32(b[len(b)-1]) << 8
	}
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}
