// Package pcap writes UDP datagrams as a classic pcap capture file:
// Ethernet frames with synthetic IPv4 or IPv6 and UDP headers around each
// datagram, with the datagram's real addresses and a timestamp, so that
// rtypedump and Wireshark (with tools/wireshark/rtype.lua) read what a
// process sent and received as a capture of its traffic.
//
// [Writer] streams records to a file as they come; [AppendHeader] and
// [AppendRecord] build the same bytes in memory (rtypetest's Capture).
// [Writer.Hooks] records everything a session UDP binding receives and
// sends.
package pcap

import (
	"encoding/binary"
	"net/netip"
	"time"
)

// The classic pcap format: microsecond timestamps, Ethernet frames.
const (
	magic        = 0xa1b2c3d4
	linkEthernet = 1
	// SnapLen is the largest frame a record holds whole.
	SnapLen = 65535
)

// HeaderLen is the length of the file header, RecordHeaderLen of each
// record's header before its frame.
const (
	HeaderLen       = 24
	RecordHeaderLen = 16
)

// AppendHeader appends the file header.
func AppendHeader(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, magic)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 4)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0) // thiszone, sigfigs
	b = binary.LittleEndian.AppendUint32(b, SnapLen)
	return binary.LittleEndian.AppendUint32(b, linkEthernet)
}

// FrameLen is the length of the Ethernet frame carrying n bytes of UDP
// payload from → to: over IPv4 when both are IPv4 addresses, else IPv6.
func FrameLen(from, to netip.AddrPort, n int) int {
	if is4(from, to) {
		return 14 + 20 + 8 + n
	}
	return 14 + 40 + 8 + n
}

func is4(from, to netip.AddrPort) bool {
	return from.Addr().Unmap().Is4() && to.Addr().Unmap().Is4()
}

// AppendRecord appends the record of datagram b sent from → to at at:
// its header and its frame, whole if the frame is at most SnapLen, else
// cut there with its true length in the header.
func AppendRecord(r []byte, at time.Time, from, to netip.AddrPort, b []byte) []byte {
	frame := FrameLen(from, to, len(b))
	us := at.UnixMicro()
	r = binary.LittleEndian.AppendUint32(r, uint32(us/1e6))
	r = binary.LittleEndian.AppendUint32(r, uint32(us%1e6))
	r = binary.LittleEndian.AppendUint32(r, uint32(min(frame, SnapLen)))
	r = binary.LittleEndian.AppendUint32(r, uint32(frame))
	start := len(r)
	r = appendFrame(r, from, to, b)
	return r[:start+min(frame, SnapLen)]
}

// appendFrame appends the Ethernet frame of datagram b, from → to: locally
// administered MAC addresses, an IPv4 header with its checksum (or IPv6),
// and a UDP header (its checksum 0 over IPv4, where it is optional, and
// computed over IPv6, where it is not).
func appendFrame(f []byte, from, to netip.AddrPort, b []byte) []byte {
	v4 := is4(from, to)
	f = append(f, 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1)
	udpLen := 8 + len(b)
	if v4 {
		f = append(f, 0x08, 0x00)
		ip := len(f)
		f = append(f, 0x45, 0)
		f = binary.BigEndian.AppendUint16(f, uint16(20+udpLen))
		f = append(f, 0, 0, 0x40, 0, 64, 17, 0, 0) // id 0, DF, TTL 64, UDP
		s, d := from.Addr().Unmap().As4(), to.Addr().Unmap().As4()
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
