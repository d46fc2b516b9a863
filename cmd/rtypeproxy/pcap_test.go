package main

import (
	"encoding/binary"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// packetSeen is one packet of a pcap file, as the test checks it.
type packetSeen struct {
	Src, Dst string
	Data     string
}

// TestPcapBothHops: -pcap holds every datagram on both hops, as the wire
// shows it: from the client to the proxy's address (the one the client
// sent to, also when the proxy listens on every address) and from the
// client's upstream address to the server, then back from the server to
// the upstream address and from the proxy to the client, with valid IP and
// UDP checksums.
func TestPcapBothHops(t *testing.T) {
	for _, tt := range []struct {
		name, listen, ip string
	}{
		{"IPv4", "127.0.0.1:0", "127.0.0.1"},
		{"every address", ":0", "127.0.0.1"},
		{"IPv6", "[::1]:0", "::1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ip := netip.MustParseAddr(tt.ip)
			srv := newFakeServerOn(t, ip)
			name := filepath.Join(t.TempDir(), "out.pcap")
			r := startProxy(t, nil, "-server", srv.addr(), "-log", "none", "-pcap", name, "-listen", tt.listen)
			front := netip.AddrPortFrom(ip, r.p.addr().Port())
			c := dial(t, front)
			client := c.LocalAddr().(*net.UDPAddr).AddrPort()
			server := netip.MustParseAddrPort(srv.addr())
			var want []packetSeen
			for _, msg := range []string{"one", "two", "", "four, a little longer and of odd length"} {
				if _, err := c.Write([]byte(msg)); err != nil {
					t.Fatal(err)
				}
				upstream := srv.next(t).from
				readWithin(t, c)
				want = append(want, packetSeen{client.String(), front.String(), msg}, packetSeen{upstream.String(), server.String(), msg},
					packetSeen{server.String(), upstream.String(), msg}, packetSeen{front.String(), client.String(), msg})
			}
			if code := r.stop(t); code != exitOK {
				t.Fatalf("exit %d: %s", code, r.stderr)
			}
			if d := cmp.Diff(want, readPcap(t, name)); d != "" {
				t.Errorf("packets (-want +got):\n%s", d)
			}
		})
	}
}

// readPcap reads a pcap file of raw IP packets, checking each one's
// checksums.
func readPcap(t *testing.T, name string) []packetSeen {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if rd.LinkType() != layers.LinkTypeRaw {
		t.Fatalf("link type %v, want raw IP", rd.LinkType())
	}
	var got []packetSeen
	for {
		data, ci, err := rd.ReadPacketData()
		if err != nil {
			break
		}
		if ci.CaptureLength != ci.Length || len(data) != ci.Length {
			t.Errorf("packet cut: %d of %d bytes", ci.CaptureLength, ci.Length)
		}
		p := gopacket.NewPacket(data, layers.LinkTypeRaw, gopacket.Default)
		u, _ := p.Layer(layers.LayerTypeUDP).(*layers.UDP)
		if u == nil {
			t.Fatalf("no UDP: %v", p)
		}
		var src, dst netip.Addr
		var pseudo []byte // RFC 768 and RFC 8200 §8.1
		switch ip := p.NetworkLayer().(type) {
		case *layers.IPv4:
			if sum := onesSum(0, data[:20]); sum != 0xffff {
				t.Errorf("IPv4 header checksum wrong (sum %#x)", sum)
			}
			src, _ = netip.AddrFromSlice(ip.SrcIP.To4())
			dst, _ = netip.AddrFromSlice(ip.DstIP.To4())
			pseudo = append(append([]byte(nil), data[12:20]...), 0, 17, 0, 0)
			binary.BigEndian.PutUint16(pseudo[10:], uint16(len(data)-20))
		case *layers.IPv6:
			src, _ = netip.AddrFromSlice(ip.SrcIP)
			dst, _ = netip.AddrFromSlice(ip.DstIP)
			pseudo = append(append([]byte(nil), data[8:40]...), 0, 0, 0, 0, 0, 0, 0, 17)
			binary.BigEndian.PutUint32(pseudo[32:], uint32(len(data)-40))
		default:
			t.Fatalf("not IP: %v", p)
		}
		udp := data[len(data)-len(u.Payload)-8:]
		if sum := onesSum(onesSum(0, pseudo), udp); sum != 0xffff {
			t.Errorf("UDP checksum wrong (sum %#x)", sum)
		}
		got = append(got, packetSeen{
			netip.AddrPortFrom(src, uint16(u.SrcPort)).String(), netip.AddrPortFrom(dst, uint16(u.DstPort)).String(), string(u.Payload)})
	}
	return got
}

// onesSum is the ones' complement sum of RFC 1071, folded to 16 bits.
func onesSum(acc uint32, b []byte) uint32 {
	for i := 0; i+1 < len(b); i += 2 {
		acc += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	if len(b)%2 == 1 {
		acc += uint32(b[len(b)-1]) << 8
	}
	for acc > 0xffff {
		acc = acc&0xffff + acc>>16
	}
	return acc
}
