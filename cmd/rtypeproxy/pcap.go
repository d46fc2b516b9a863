package main

import (
	"bufio"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// pcapSnapLen is the snapshot length of the file: any IP packet fits.
const pcapSnapLen = 65535 + 40 + 8

// pcapWriter writes what each side received, as the proxy delivers it, as raw IP packets (link type 101) from the sender's address
// as the receiver sees it: the client's upstream socket for the server, the
// proxy's listening address for the client. Lengths and checksums are
// computed (RFC 791, RFC 768, RFC 8200). Safe for concurrent use.
type pcapWriter struct {
	mu     sync.Mutex
	f      *os.File
	bw     *bufio.Writer
	w      *pcapgo.Writer
	sb     gopacket.SerializeBuffer
	ip4    layers.IPv4
	ip6    layers.IPv6
	udp    layers.UDP
	id     uint16
	server netip.AddrPort
	// write sends a datagram; deliver calls it under mu.
	write func(*client, direction, []byte) error
	err   error // the first write error; nothing more is written after it
}

func createPcap(name string, server netip.AddrPort, write func(*client, direction, []byte) error) (*pcapWriter, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	p := &pcapWriter{f: f, server: server, write: write, bw: bufio.NewWriterSize(f, 1<<16), sb: gopacket.NewSerializeBuffer()}
	p.w = pcapgo.NewWriter(p.bw)
	if err := p.w.WriteFileHeader(pcapSnapLen, layers.LinkTypeRaw); err != nil {
		f.Close()
		return nil, err
	}
	return p, nil
}

// deliver sends b with write and records it as the receiver on side dir
// got it, so that the file keeps the order of delivery.
func (p *pcapWriter) deliver(c *client, dir direction, b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.write(c, dir, b); err != nil {
		return err
	}
	src, dst := c.local, p.server
	if dir == down {
		src, dst = c.front, c.addr
	}
	if p.err == nil {
		p.err = p.packet(src, dst, b, time.Now())
	}
	return nil
}

// packet writes one IP packet carrying b from src to dst.
func (p *pcapWriter) packet(src, dst netip.AddrPort, b []byte, t time.Time) error {
	p.udp = layers.UDP{SrcPort: layers.UDPPort(src.Port()), DstPort: layers.UDPPort(dst.Port())}
	var ip gopacket.SerializableLayer
	switch {
	case src.Addr().Is4() && dst.Addr().Is4():
		p.id++
		p.ip4 = layers.IPv4{Version: 4, TTL: 64, Id: p.id, Flags: layers.IPv4DontFragment, Protocol: layers.IPProtocolUDP,
			SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
		_ = p.udp.SetNetworkLayerForChecksum(&p.ip4)
		ip = &p.ip4
	case src.Addr().Is6() && dst.Addr().Is6():
		p.ip6 = layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolUDP,
			SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
		_ = p.udp.SetNetworkLayerForChecksum(&p.ip6)
		ip = &p.ip6
	default:
		return nil // ends of two IP versions: no packet carries that
	}
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(p.sb, opts, ip, &p.udp, gopacket.Payload(b)); err != nil {
		return err
	}
	data := p.sb.Bytes()
	ci := gopacket.CaptureInfo{Timestamp: t, CaptureLength: len(data), Length: len(data)}
	return p.w.WritePacket(ci, data)
}

// flush writes what is buffered to the file.
func (p *pcapWriter) flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = p.bw.Flush()
	}
	return p.err
}

// close flushes and closes the file; the error is the first one met.
func (p *pcapWriter) close() error {
	err := p.flush()
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	return err
}
