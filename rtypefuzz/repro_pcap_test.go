package rtypefuzz

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/pcap"
)

// pcapRecord is what a test reads back of a record: its time, UDP ports
// and payload (the frames are Ethernet, IPv4, UDP).
type pcapRecord struct {
	at       time.Time
	src, dst netip.AddrPort
	payload  string
}

func readPcap(t *testing.T, b []byte) []pcapRecord {
	t.Helper()
	if len(b) < pcap.HeaderLen || binary.LittleEndian.Uint32(b) != 0xa1b2c3d4 || binary.LittleEndian.Uint32(b[20:]) != 1 {
		t.Fatalf("not a pcap file of Ethernet frames: % x", b[:min(len(b), 24)])
	}
	var out []pcapRecord
	for b = b[pcap.HeaderLen:]; len(b) > 0; {
		if len(b) < pcap.RecordHeaderLen {
			t.Fatalf("%d bytes left, a truncated record header", len(b))
		}
		sec, us := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
		n := int(binary.LittleEndian.Uint32(b[8:]))
		f := b[pcap.RecordHeaderLen : pcap.RecordHeaderLen+n]
		b = b[pcap.RecordHeaderLen+n:]
		if binary.BigEndian.Uint16(f[12:]) != 0x0800 || f[14+9] != 17 {
			t.Fatalf("record %d is not IPv4 UDP", len(out))
		}
		ip := f[14:]
		udp := ip[20:]
		src, _ := netip.AddrFromSlice(ip[12:16])
		dst, _ := netip.AddrFromSlice(ip[16:20])
		out = append(out, pcapRecord{
			at:      time.Unix(int64(sec), int64(us)*1000).UTC(),
			src:     netip.AddrPortFrom(src, binary.BigEndian.Uint16(udp)),
			dst:     netip.AddrPortFrom(dst, binary.BigEndian.Uint16(udp[2:])),
			payload: string(udp[8:]),
		})
	}
	return out
}

// Both directions are recorded, at the epoch plus their times, with their
// addresses or, without, loopback ones.
func TestWritePcap(t *testing.T) {
	fuzzer := netip.MustParseAddrPort("192.0.2.1:5000")
	impl := netip.MustParseAddrPort("192.0.2.2:4242")
	ds := []Datagram{
		{At: 0, Out: true, From: fuzzer, To: impl, Bytes: []byte("RTYP\x01\x01")},
		{At: 1500 * time.Microsecond, From: impl, To: fuzzer, Bytes: []byte("welcome")},
		{At: 2 * time.Second, Out: true, Bytes: []byte{}},
		{At: 3 * time.Second, Bytes: []byte("pong")},
	}
	path := filepath.Join(t.TempDir(), "finding-1.pcap")
	if err := WritePcap(path, ds); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := readPcap(t, b)
	want := []pcapRecord{
		{PcapEpoch, fuzzer, impl, "RTYP\x01\x01"},
		{PcapEpoch.Add(1500 * time.Microsecond), impl, fuzzer, "welcome"},
		{PcapEpoch.Add(2 * time.Second), pcapFuzzer, pcapImpl, ""},
		{PcapEpoch.Add(3 * time.Second), pcapImpl, pcapFuzzer, "pong"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// A reproducer's datagrams, read back without addresses, make one too.
	r, err := ReadRepro(strings.NewReader(exampleFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := WritePcap(path, r.Datagrams); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); len(readPcap(t, b)) != len(r.Datagrams) {
		t.Error("the reproducer's capture lacks records")
	}
	if err := WritePcap(filepath.Join(t.TempDir(), "no", "such", "dir", "f.pcap"), ds); !errors.Is(err, ErrPcap) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("into a missing directory: %v", err)
	}
}
