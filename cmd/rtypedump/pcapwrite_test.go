package main

import (
	"encoding/binary"
	"io"
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// captured is one UDP datagram as it went over the wire.
type captured struct {
	time     time.Time
	src, dst netip.AddrPort
	data     []byte
	// Optional distortions for synthetic captures: keep only the first
	// snap bytes of the frame, or mark the IPv4 packet as a first fragment.
	snap     int
	fragment bool
	raw      []byte // a whole frame, written as it is
}

// ethernetFrame wraps a datagram in Ethernet, IPv4 and UDP headers with
// correct lengths and checksums (RFC 791, RFC 768).
func ethernetFrame(c captured, id uint16) []byte {
	if c.raw != nil {
		return c.raw
	}
	f := make([]byte, 14, 14+20+8+len(c.data))
	binary.BigEndian.PutUint16(f[12:14], 0x0800)
	ip := ipv4UDP(c, id)
	return append(f, ip...)
}

// ipv4UDP builds the IPv4 packet carrying c.
func ipv4UDP(c captured, id uint16) []byte {
	udpLen := 8 + len(c.data)
	p := make([]byte, 20+udpLen)
	p[0] = 0x45
	binary.BigEndian.PutUint16(p[2:4], uint16(20+udpLen))
	binary.BigEndian.PutUint16(p[4:6], id)
	if c.fragment {
		binary.BigEndian.PutUint16(p[6:8], 0x2000) // more fragments, offset 0
	} else {
		binary.BigEndian.PutUint16(p[6:8], 0x4000) // don't fragment
	}
	p[8], p[9] = 64, 17
	src, dst := c.src.Addr().As4(), c.dst.Addr().As4()
	copy(p[12:16], src[:])
	copy(p[16:20], dst[:])
	binary.BigEndian.PutUint16(p[10:12], checksum(0, p[:20]))
	u := p[20:]
	binary.BigEndian.PutUint16(u[0:2], c.src.Port())
	binary.BigEndian.PutUint16(u[2:4], c.dst.Port())
	binary.BigEndian.PutUint16(u[4:6], uint16(udpLen))
	copy(u[8:], c.data)
	pseudo := make([]byte, 12)
	copy(pseudo[0:4], src[:])
	copy(pseudo[4:8], dst[:])
	pseudo[9] = 17
	binary.BigEndian.PutUint16(pseudo[10:12], uint16(udpLen))
	sum := checksum(checksumAdd(0, pseudo), u)
	if sum == 0 {
		sum = 0xffff
	}
	binary.BigEndian.PutUint16(u[6:8], sum)
	return p
}

// icmpUnreachable is the Ethernet frame of the ICMP port unreachable error
// (RFC 792) that the host of c.dst sends back to c.src, quoting the IPv4
// packet of c whole.
func icmpUnreachable(c captured) []byte {
	quoted := ipv4UDP(c, 1)
	icmp := make([]byte, 8, 8+len(quoted))
	icmp[0], icmp[1] = 3, 3 // destination unreachable, port unreachable
	icmp = append(icmp, quoted...)
	binary.BigEndian.PutUint16(icmp[2:4], checksum(0, icmp))
	p := make([]byte, 20, 20+len(icmp))
	p[0] = 0x45
	binary.BigEndian.PutUint16(p[2:4], uint16(20+len(icmp)))
	p[8], p[9] = 64, 1
	src, dst := c.dst.Addr().As4(), c.src.Addr().As4()
	copy(p[12:16], src[:])
	copy(p[16:20], dst[:])
	binary.BigEndian.PutUint16(p[10:12], checksum(0, p[:20]))
	f := make([]byte, 14, 14+len(p)+len(icmp))
	binary.BigEndian.PutUint16(f[12:14], 0x0800)
	return append(append(f, p...), icmp...)
}

func checksumAdd(acc uint32, b []byte) uint32 {
	for i := 0; i+1 < len(b); i += 2 {
		acc += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		acc += uint32(b[len(b)-1]) << 8
	}
	return acc
}

func checksum(acc uint32, b []byte) uint16 {
	acc = checksumAdd(acc, b)
	for acc>>16 != 0 {
		acc = acc&0xffff + acc>>16
	}
	return ^uint16(acc)
}

// writePcap writes datagrams as an Ethernet pcap file.
func writePcap(w io.Writer, list []captured) error {
	pw := pcapgo.NewWriterNanos(w)
	if err := pw.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		return err
	}
	for i, c := range list {
		f := ethernetFrame(c, uint16(i+1))
		ci := gopacket.CaptureInfo{Timestamp: c.time, CaptureLength: len(f), Length: len(f)}
		if c.snap > 0 && c.snap < len(f) {
			ci.CaptureLength = c.snap
			f = f[:c.snap]
		}
		if err := pw.WritePacket(ci, f); err != nil {
			return err
		}
	}
	return nil
}

// writePcapng writes datagrams as an Ethernet pcapng file.
func writePcapng(w io.Writer, list []captured) error {
	nw, err := pcapgo.NewNgWriter(w, layers.LinkTypeEthernet)
	if err != nil {
		return err
	}
	for i, c := range list {
		f := ethernetFrame(c, uint16(i+1))
		ci := gopacket.CaptureInfo{Timestamp: c.time, CaptureLength: len(f), Length: len(f)}
		if err := nw.WritePacket(ci, f); err != nil {
			return err
		}
	}
	return nw.Flush()
}
