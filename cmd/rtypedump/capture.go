package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// maxSnapLen is the largest record a pcap file may hold here, the largest
// snapshot length packet capture tools use. It bounds what one bad record
// header can make the reader allocate.
const maxSnapLen = 262144

// frame is one record of a capture: a link-layer frame.
type frame struct {
	n    int // record number, 1-based, as packet analysers number frames
	info gopacket.CaptureInfo
	link layers.LinkType
	data []byte
}

// captureReader reads the records of a pcap or a pcapng capture.
type captureReader struct {
	format string
	read   func() ([]byte, gopacket.CaptureInfo, error)
	link   func(gopacket.CaptureInfo) layers.LinkType
	n      int
	// offset is where the next pcap record starts; -1 for pcapng, whose
	// reader buffers ahead so that only the guard knows offsets.
	offset int64
}

// Capture file magics, as the first four bytes of the file.
var (
	pcapMagics = [][4]byte{
		{0xd4, 0xc3, 0xb2, 0xa1}, {0xa1, 0xb2, 0xc3, 0xd4}, // microseconds
		{0x4d, 0x3c, 0xb2, 0xa1}, {0xa1, 0xb2, 0x3c, 0x4d}, // nanoseconds
	}
	pcapngMagic = [4]byte{0x0a, 0x0d, 0x0d, 0x0a}
)

// openCapture detects the format from the magic and reads the file header.
func openCapture(r io.Reader) (*captureReader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(4)
	if len(head) < 4 {
		if err == nil || err == io.EOF {
			err = errors.New("file too short for a capture header")
		}
		return nil, &posError{pos: "byte offset 0", err: err}
	}
	var magic [4]byte
	copy(magic[:], head)
	switch {
	case magic == pcapngMagic:
		ng, err := pcapgo.NewNgReader(&ngGuard{r: br}, pcapgo.NgReaderOptions{WantMixedLinkType: true})
		if err != nil {
			return nil, &posError{pos: "byte offset 0", err: fmt.Errorf("bad pcapng header: %w", err)}
		}
		return &captureReader{
			format: "pcapng",
			read:   ng.ReadPacketData,
			link: func(ci gopacket.CaptureInfo) layers.LinkType {
				if len(ci.AncillaryData) > 0 {
					if l, ok := ci.AncillaryData[0].(layers.LinkType); ok {
						return l
					}
				}
				return ng.LinkType()
			},
			offset: -1,
		}, nil
	case isPcap(magic):
		pr, err := pcapgo.NewReader(br)
		if err != nil {
			return nil, &posError{pos: "byte offset 0", err: fmt.Errorf("bad pcap header: %w", err)}
		}
		if s := pr.Snaplen(); s == 0 || s > maxSnapLen {
			pr.SetSnaplen(maxSnapLen)
		}
		lt := pr.LinkType()
		return &captureReader{
			format: "pcap",
			read:   pr.ReadPacketData,
			link:   func(gopacket.CaptureInfo) layers.LinkType { return lt },
			offset: 24,
		}, nil
	}
	e := &notCaptureError{magic: magic}
	head, err = br.Peek(sniffLen)
	e.hint = hexHint(head, err != nil)
	return nil, &posError{pos: "byte offset 0", err: e}
}

func isPcap(m [4]byte) bool {
	for _, x := range pcapMagics {
		if m == x {
			return true
		}
	}
	return false
}

// next returns the next record, io.EOF after the last one, or a *posError
// naming the record (and, for pcap, its byte offset) where the file breaks.
func (c *captureReader) next() (frame, error) {
	data, ci, err := c.read()
	if err == io.EOF {
		return frame{}, io.EOF
	}
	c.n++
	if err != nil {
		if err == io.ErrUnexpectedEOF {
			err = errors.New("truncated capture: file ends inside the record")
		}
		pos := fmt.Sprintf("record %d", c.n)
		if c.offset >= 0 {
			pos += fmt.Sprintf(" at byte offset %d", c.offset)
		}
		return frame{}, &posError{pos: pos, err: err}
	}
	if c.offset >= 0 {
		c.offset += 16 + int64(len(data))
	}
	return frame{n: c.n, info: ci, link: c.link(ci), data: data}, nil
}

// ngGuard checks the block structure of a pcapng stream as it passes to the
// pcapng reader, which trusts the lengths it reads: a block length that is
// not a multiple of 4, that is absurdly large, or a packet block whose
// captured length exceeds its block is refused before the reader sizes a
// buffer by it.
type ngGuard struct {
	r       io.Reader
	order   binary.ByteOrder
	pending []byte // bytes of the current block header, checked, not yet passed
	left    int64  // bytes of the current block not yet passed
	pos     int64  // bytes passed so far
	err     error
}

const maxNgBlock = 16 << 20

func (g *ngGuard) Read(p []byte) (int, error) {
	if len(g.pending) > 0 {
		n := copy(p, g.pending)
		g.pending = g.pending[n:]
		g.pos += int64(n)
		return n, nil
	}
	if g.err != nil {
		return 0, g.err
	}
	if g.left == 0 {
		if err := g.header(); err != nil {
			g.err = err
		}
		if len(g.pending) == 0 {
			return 0, g.err
		}
		return g.Read(p)
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	n, err := g.r.Read(p)
	g.left -= int64(n)
	g.pos += int64(n)
	if err == io.EOF && g.left > 0 {
		// The file ends inside a block: not the clean end of the capture.
		g.err = io.ErrUnexpectedEOF
		return n, g.err
	}
	return n, err
}

// header reads and checks the start of the next block into pending.
func (g *ngGuard) header() error {
	start := g.pos
	h := make([]byte, 28)
	n, err := io.ReadFull(g.r, h[:8])
	g.pending = h[:n]
	if err != nil {
		return err
	}
	typ := binary.LittleEndian.Uint32(h[0:4]) // the section header type reads the same either way
	if typ == 0x0a0d0d0a {
		n, err := io.ReadFull(g.r, h[8:12])
		g.pending = h[:8+n]
		if err != nil {
			return err
		}
		switch binary.LittleEndian.Uint32(h[8:12]) {
		case 0x1a2b3c4d:
			g.order = binary.LittleEndian
		case 0x4d3c2b1a:
			g.order = binary.BigEndian
		default:
			return fmt.Errorf("byte offset %d: bad pcapng byte-order magic", start)
		}
	}
	if g.order == nil {
		return fmt.Errorf("byte offset %d: pcapng block before the section header", start)
	}
	typ = g.order.Uint32(h[0:4])
	length := int64(g.order.Uint32(h[4:8]))
	if length < 12 || length%4 != 0 || length > maxNgBlock {
		return fmt.Errorf("byte offset %d: bad pcapng block length %d", start, length)
	}
	var limit int64 // captured length allowed by the block size
	var at int      // offset of the captured length field
	switch typ {
	case 2, 6: // packet and enhanced packet blocks
		limit, at = length-32, 20
	case 3: // simple packet block: original length, all of it captured
		limit, at = length-16, 8
	}
	if at > 0 {
		read := len(g.pending)
		n, err := io.ReadFull(g.r, h[read:at+4])
		g.pending = h[:read+n]
		if err != nil {
			return err
		}
		if caplen := int64(g.order.Uint32(h[at : at+4])); caplen > limit {
			return fmt.Errorf("byte offset %d: packet block claims %d bytes in a %d-byte block", start, caplen, length)
		}
	}
	g.left = length - int64(len(g.pending))
	if g.left < 0 {
		return fmt.Errorf("byte offset %d: bad pcapng block length %d", start, length)
	}
	return nil
}
