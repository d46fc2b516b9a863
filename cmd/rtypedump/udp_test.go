package main

import (
	"bytes"
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// udpFrames are Ethernet frames of every shape udpOf meets: the common
// ones its fast path reads, and the others it must leave to gopacket's
// packet, which decides as it always did.
func udpFrames(t *testing.T) map[string][]byte {
	t.Helper()
	ser := func(ls ...gopacket.SerializableLayer) []byte {
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true}, ls...); err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(buf.Bytes())
	}
	mac := net.HardwareAddr{2, 0, 0, 0, 0, 1}
	eth := func(typ layers.EthernetType) *layers.Ethernet {
		return &layers.Ethernet{SrcMAC: mac, DstMAC: mac, EthernetType: typ}
	}
	v4 := func(proto layers.IPProtocol) *layers.IPv4 {
		return &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: proto, SrcIP: net.IP{10, 0, 0, 1}, DstIP: net.IP{10, 0, 0, 2}}
	}
	v6 := &layers.IPv6{Version: 6, NextHeader: layers.IPProtocolUDP, HopLimit: 64, SrcIP: net.ParseIP("2001:db8::1"), DstIP: net.ParseIP("2001:db8::2")}
	udp := &layers.UDP{SrcPort: 50000, DstPort: 4242}
	payload := gopacket.Payload("RTYP\x01\x01")
	frames := map[string][]byte{
		"ipv4 udp": ser(eth(layers.EthernetTypeIPv4), v4(layers.IPProtocolUDP), udp, payload),
		"ipv6 udp": ser(eth(layers.EthernetTypeIPv6), v6, udp, payload),
		"ipv4 tcp": ser(eth(layers.EthernetTypeIPv4), v4(layers.IPProtocolTCP), &layers.TCP{SrcPort: 1, DstPort: 2}, payload),
		"vlan": ser(eth(layers.EthernetTypeDot1Q), &layers.Dot1Q{VLANIdentifier: 7, Type: layers.EthernetTypeIPv4},
			v4(layers.IPProtocolUDP), udp, payload),
		"arp":   ser(eth(layers.EthernetTypeARP), &layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4, HwAddressSize: 6, ProtAddressSize: 4, SourceHwAddress: mac, SourceProtAddress: []byte{1, 2, 3, 4}, DstHwAddress: mac, DstProtAddress: []byte{1, 2, 3, 4}}),
		"short": {1, 2, 3},
	}
	base := frames["ipv4 udp"]
	with := func(name string, edit func(f []byte) []byte) {
		frames[name] = edit(bytes.Clone(base))
	}
	with("first fragment", func(f []byte) []byte { f[20] |= 0x20; return f })
	with("later fragment", func(f []byte) []byte { f[21] = 8; return f })
	with("cut in the payload", func(f []byte) []byte { return f[:len(f)-2] })
	with("cut in the udp header", func(f []byte) []byte { return f[:14+20+5] })
	with("cut in the ip header", func(f []byte) []byte { return f[:14+12] })
	with("udp length too small", func(f []byte) []byte { binary.BigEndian.PutUint16(f[38:40], 4); return f })
	with("udp length 0", func(f []byte) []byte { binary.BigEndian.PutUint16(f[38:40], 0); return f })
	with("udp length past the end", func(f []byte) []byte { binary.BigEndian.PutUint16(f[38:40], 200); return f })
	with("ip length past the end", func(f []byte) []byte { binary.BigEndian.PutUint16(f[16:18], 300); return f })
	with("ip length short", func(f []byte) []byte { binary.BigEndian.PutUint16(f[16:18], 30); return f })
	with("ip header length 3", func(f []byte) []byte { f[14] = 0x43; return f })
	with("ip version 6 in ipv4", func(f []byte) []byte { f[14] = 0x65; return f })
	with("trailer after the ip packet", func(f []byte) []byte { return append(f, 0, 0, 0, 0) })
	with("802.3 length", func(f []byte) []byte { binary.BigEndian.PutUint16(f[12:14], 40); return f })
	return frames
}

// udpOf's fast path reads each Ethernet frame as gopacket's packet does,
// those of the committed captures too, and is taken for the frames of a
// game over IPv4 and IPv6.
func TestUDPOfEthernet(t *testing.T) {
	frames := udpFrames(t)
	paths, _ := filepath.Glob("testdata/*.pcap*")
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c, err := openCapture(bytes.NewReader(b))
		if err != nil {
			continue
		}
		for {
			f, err := c.next()
			if err != nil {
				break
			}
			if f.link == layers.LinkTypeEthernet {
				frames[filepath.Base(path)+" frame "+strconv.Itoa(f.n)] = f.data
			}
		}
	}
	fast := 0
	for name, data := range frames {
		f := frame{link: layers.LinkTypeEthernet, data: data}
		d, ok := udpOf(f)
		want, wok := udpOfPacket(f)
		if diff := cmp.Diff(udpView(want, wok), udpView(d, ok)); diff != "" {
			t.Errorf("%s (-packet +udpOf):\n%s", name, diff)
		}
		if _, ok := udpOfEthernet(data); ok {
			fast++
		}
	}
	for _, name := range []string{"ipv4 udp", "ipv6 udp", "cut in the payload", "udp length past the end"} {
		if _, ok := udpOfEthernet(frames[name]); !ok {
			t.Errorf("%s: left to the packet decoder", name)
		}
	}
	if fast < 50 {
		t.Errorf("the fast path read %d frames of %d", fast, len(frames))
	}
}

// udpView is what udpOf reports, comparable.
func udpView(d udpDatagram, ok bool) []string {
	p := "<nil>"
	if d.problem != nil {
		p = d.problem.Error()
	}
	return []string{d.src.String(), d.dst.String(), string(d.payload), p, map[bool]string{true: "ok"}[ok]}
}
