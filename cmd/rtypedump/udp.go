package main

import (
	"net/netip"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// udpDatagram is the UDP payload of a frame with its endpoints.
type udpDatagram struct {
	src, dst netip.AddrPort
	payload  []byte
	// problem says why the payload is not the whole datagram: cut by the
	// capture's snapshot length, or an IP fragment that is not reassembled.
	problem error
}

// udpOf extracts the UDP datagram a frame carries. ok is false for frames
// that carry none, and for non-first IP fragments, which have no UDP header.
func udpOf(f frame) (d udpDatagram, ok bool) {
	p := gopacket.NewPacket(f.data, f.link, gopacket.DecodeOptions{Lazy: true, NoCopy: true})
	u, _ := p.Layer(layers.LayerTypeUDP).(*layers.UDP)
	if u == nil {
		u = firstFragmentUDP(p)
	}
	if u == nil {
		return d, false
	}
	var src, dst netip.Addr
	switch ip := p.NetworkLayer().(type) {
	case *layers.IPv4:
		src, _ = netip.AddrFromSlice(ip.SrcIP.To4())
		dst, _ = netip.AddrFromSlice(ip.DstIP.To4())
		if ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0 {
			d.problem = &partialError{size: int(u.Length) - 8, fragment: true}
		}
	case *layers.IPv6:
		src, _ = netip.AddrFromSlice(ip.SrcIP)
		dst, _ = netip.AddrFromSlice(ip.DstIP)
	default:
		return d, false
	}
	d.src = netip.AddrPortFrom(src, uint16(u.SrcPort))
	d.dst = netip.AddrPortFrom(dst, uint16(u.DstPort))
	d.payload = u.Payload
	if d.problem == nil && u.Length >= 8 && int(u.Length)-8 > len(u.Payload) {
		d.problem = &partialError{captured: len(u.Payload), size: int(u.Length) - 8}
	}
	return d, true
}

// firstFragmentUDP decodes the UDP header at the start of the first fragment
// of a fragmented IPv4 packet, which the packet decoder leaves undecoded.
func firstFragmentUDP(p gopacket.Packet) *layers.UDP {
	ip, _ := p.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
	if ip == nil || ip.Protocol != layers.IPProtocolUDP || ip.FragOffset != 0 || ip.Flags&layers.IPv4MoreFragments == 0 {
		return nil
	}
	var u layers.UDP
	if err := u.DecodeFromBytes(ip.Payload, gopacket.NilDecodeFeedback); err != nil {
		return nil
	}
	return &u
}
