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
	if f.link == layers.LinkTypeEthernet {
		if d, ok := udpOfEthernet(f.data); ok {
			return d, true
		}
	}
	return udpOfPacket(f)
}

// udpOfEthernet reads the frame nearly every datagram of a game comes in:
// Ethernet, then IPv4 unfragmented or IPv6 without extension headers, then
// UDP, each layer decoded by gopacket's own decoder as a packet would
// chain them, without a packet's allocations, a third of a capture's
// decoding. ok is false for any other frame, and for one a layer of which
// fails, which udpOfPacket reads as it always did.
func udpOfEthernet(data []byte) (d udpDatagram, ok bool) {
	var eth layers.Ethernet
	if eth.DecodeFromBytes(data, gopacket.NilDecodeFeedback) != nil {
		return d, false
	}
	var src, dst netip.Addr
	var payload []byte
	switch eth.EthernetType {
	case layers.EthernetTypeIPv4:
		var ip layers.IPv4
		if ip.DecodeFromBytes(eth.Payload, gopacket.NilDecodeFeedback) != nil || ip.Protocol != layers.IPProtocolUDP ||
			ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0 {
			return d, false
		}
		src, _ = netip.AddrFromSlice(ip.SrcIP.To4())
		dst, _ = netip.AddrFromSlice(ip.DstIP.To4())
		payload = ip.Payload
	case layers.EthernetTypeIPv6:
		var ip layers.IPv6
		if ip.DecodeFromBytes(eth.Payload, gopacket.NilDecodeFeedback) != nil || ip.HopByHop != nil ||
			ip.NextHeader != layers.IPProtocolUDP {
			return d, false
		}
		src, _ = netip.AddrFromSlice(ip.SrcIP)
		dst, _ = netip.AddrFromSlice(ip.DstIP)
		payload = ip.Payload
	default:
		return d, false
	}
	var u layers.UDP
	if u.DecodeFromBytes(payload, gopacket.NilDecodeFeedback) != nil {
		return d, false
	}
	return udpDatagramOf(src, dst, &u, nil), true
}

// udpOfPacket is udpOf through a gopacket packet, for every link type.
func udpOfPacket(f frame) (d udpDatagram, ok bool) {
	p := gopacket.NewPacket(f.data, f.link, gopacket.DecodeOptions{Lazy: true, NoCopy: true})
	u, _ := p.Layer(layers.LayerTypeUDP).(*layers.UDP)
	if u == nil {
		u = firstFragmentUDP(p)
	}
	if u == nil {
		return d, false
	}
	var src, dst netip.Addr
	var problem error
	switch ip := p.NetworkLayer().(type) {
	case *layers.IPv4:
		src, _ = netip.AddrFromSlice(ip.SrcIP.To4())
		dst, _ = netip.AddrFromSlice(ip.DstIP.To4())
		if ip.Flags&layers.IPv4MoreFragments != 0 || ip.FragOffset != 0 {
			problem = &partialError{size: int(u.Length) - 8, fragment: true}
		}
	case *layers.IPv6:
		src, _ = netip.AddrFromSlice(ip.SrcIP)
		dst, _ = netip.AddrFromSlice(ip.DstIP)
	default:
		return d, false
	}
	return udpDatagramOf(src, dst, u, problem), true
}

// udpDatagramOf is u between src and dst; problem, if not nil, is why its
// payload is not whole, else a payload the capture cut is found here.
func udpDatagramOf(src, dst netip.Addr, u *layers.UDP, problem error) udpDatagram {
	d := udpDatagram{
		src:     netip.AddrPortFrom(src, uint16(u.SrcPort)),
		dst:     netip.AddrPortFrom(dst, uint16(u.DstPort)),
		payload: u.Payload,
		problem: problem,
	}
	if d.problem == nil && u.Length >= 8 && int(u.Length)-8 > len(u.Payload) {
		d.problem = &partialError{captured: len(u.Payload), size: int(u.Length) - 8}
	}
	return d
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
