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

// pcapWriter writes each datagram as the wire would show it on the two
// hops the proxy stands between, as raw IP packets (link type 101): the
// listening socket's hop, between each client and the proxy's address as
// the client sees it, and the upstream socket's hop, between the client's
// upstream socket and the server. A datagram is recorded on its sender's
// hop when it reaches the proxy and on its receiver's hop when the proxy
// delivers it, so that each hop holds what its two ends sent and
// received, and a datagram the proxy dropped is on its sender's hop only.
// Lengths and checksums are computed (RFC 791, RFC 768, RFC 8200). Safe for
// concurrent use.
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
	last   time.Time // of the last record, so that times never go back
	server netip.AddrPort
	// write sends a datagram; deliver calls it under mu, so that the
	// record of a delivery comes before anything its receiver answers.
	write func(*client, direction, []byte) error
	err   error // the first write error; nothing more is written after it
}

// createPcap creates the file name and writes its header; server is the
// server's address, write what sends a datagram on its socket.
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

// arrived records b, which reached the proxy from side dir of c, on the
// sender's hop: from the client to the proxy (up), from the server to the
// client's upstream socket (down).
func (p *pcapWriter) arrived(c *client, dir direction, b []byte) {
	src, dst := c.addr, c.front
	if dir == down {
		src, dst = p.server, c.local
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.record(src, dst, b)
}

// deliver sends b with write and records it on the receiver's hop: from
// the client's upstream socket to the server (up), from the proxy to the
// client (down). A send that fails is not recorded.
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
	p.record(src, dst, b)
	return nil
}

// record writes b from src to dst, now or at the last record's time if the
// clock went back; under mu.
func (p *pcapWriter) record(src, dst netip.AddrPort, b []byte) {
	t := time.Now()
	if t.Before(p.last) {
		t = p.last
	}
	p.last = t
	if p.err == nil {
		p.err = p.packet(src, dst, b, t)
	}
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
