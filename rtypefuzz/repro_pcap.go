package rtypefuzz

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/pcap"
)

// ErrPcap is wrapped by WritePcap's errors.
var ErrPcap = errors.New("rtypefuzz: pcap")

// PcapEpoch is the time a capture's session starts at: a fixed one, so
// that the capture of the same datagrams is the same file.
var PcapEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// The addresses a datagram without them is recorded with: the fuzzer's on
// loopback, the implementation's at the default port (§2).
var (
	pcapFuzzer = netip.MustParseAddrPort("127.0.0.1:40000")
	pcapImpl   = netip.MustParseAddrPort("127.0.0.1:4242")
)

// WritePcap writes ds, both directions, to a capture file at path that
// rtypedump and Wireshark read: each at PcapEpoch plus its At, from and to
// its addresses (those of a Repro read back are unknown, and recorded as
// loopback ones).
func WritePcap(path string, ds []Datagram) error {
	w, err := pcap.Create(path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrPcap, err)
	}
	for _, d := range ds {
		from, to := pcapFuzzer, pcapImpl
		if !d.Out {
			from, to = to, from
		}
		if d.From.IsValid() {
			from = d.From
		}
		if d.To.IsValid() {
			to = d.To
		}
		if err := w.Write(PcapEpoch.Add(d.At), from, to, d.Bytes); err != nil {
			w.Close()
			return fmt.Errorf("%w: %w", ErrPcap, err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("%w: %w", ErrPcap, err)
	}
	return nil
}
