package main

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/rtypeproto/rtype"
)

// syntheticCaptures builds every committed capture: the loopback session in
// pcap and pcapng, broken copies of it, and hand-made captures for what a
// loopback session cannot show.
func syntheticCaptures(t *testing.T) map[string][]byte {
	t.Helper()
	x := runLoopback(t)
	var pcap, ng bytes.Buffer
	if err := writePcap(&pcap, x.log); err != nil {
		t.Fatal(err)
	}
	if err := writePcapng(&ng, x.log); err != nil {
		t.Fatal(err)
	}
	p, n := pcap.Bytes(), ng.Bytes()

	// Cut inside the data of the fifth record.
	cut := 24
	for i := range 4 {
		cut += 16 + len(ethernetFrame(x.log[i], uint16(i+1)))
	}
	cut += 16 + 3

	return map[string][]byte{
		"loopback.pcap":     p,
		"loopback.pcapng":   n,
		"truncated.pcap":    p[:cut],
		"truncated.pcapng":  n[:len(n)*2/3],
		"short_header.pcap": p[:10],
		"bad_block.pcapng":  hugeCaplen(t, n),
		"empty.pcap":        {},
		"mixed.pcap":        mixedCapture(t),
		"rawip.pcap":        rawIPCapture(t),
		"connid.pcap":       connIDCapture(t),
		"reconnect.pcap":    reconnectCapture(t),
		"phases.pcap":       phasesCapture(t),
	}
}

// connIDFlagged are the frames of connid.pcap a receiver drops for their
// connection id, with the start of the error rtypedump and the dissector
// give; every other frame of it is kept, but for frame 12, of id 0.
var connIDFlagged = map[int]string{
	6: "connection id 6 differs from the Welcome's 5",
	7: "connection id 7 differs from the Welcome's 5",
	9: "connection id 6 differs from the Welcome's 5",
}

// connIDCapture is two clients welcomed with ids 5 and 6, and packets
// between the server and the first with its own id, the second's, one no
// connection has, and 0, to the server and to the client (§5.4).
func connIDCapture(t *testing.T) []byte {
	srv, a, b := addrPort("10.2.0.1:4242"), addrPort("10.2.0.2:40000"), addrPort("10.2.0.3:40001")
	list := []captured{
		{src: a, dst: srv, data: rtype.AppendHello(nil)},
		{src: srv, dst: a, data: rtype.AppendWelcome(nil, 5)},
		{src: b, dst: srv, data: rtype.AppendHello(nil)},
		{src: srv, dst: b, data: rtype.AppendWelcome(nil, 6)},
		{src: a, dst: srv, data: testPacket(t, 5, 1, rtype.Input{InputSequence: 1, ClientTick: 1})},
		{src: a, dst: srv, data: testPacket(t, 6, 2, rtype.Input{InputSequence: 2, ClientTick: 2})},
		{src: a, dst: srv, data: testPacket(t, 7, 3, rtype.Ping{Timestamp: 3})},
		{src: srv, dst: a, data: testPacket(t, 5, 1, rtype.Pong{Timestamp: 3})},
		{src: srv, dst: a, data: testPacket(t, 6, 2, rtype.Pong{Timestamp: 4})},
		{src: b, dst: srv, data: testPacket(t, 6, 1, rtype.Input{InputSequence: 1, ClientTick: 1})},
		{src: srv, dst: b, data: testPacket(t, 6, 1, rtype.Pong{Timestamp: 5})},
		{src: a, dst: srv, data: []byte{0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0}},
		// The dropped packets took no sequence: 2 is new to the server.
		{src: a, dst: srv, data: testPacket(t, 5, 2, rtype.Ping{Timestamp: 6})},
	}
	for i := range list {
		list[i].time = captureEpoch.Add(time.Duration(i) * time.Millisecond)
	}
	var buf bytes.Buffer
	if err := writePcap(&buf, list); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// frameVerdict is what rtypedump and the dissector must say of one frame:
// its kind (§3) and the start of its error, "" when a receiver keeps it.
type frameVerdict struct{ kind, err string }

// reconnectVerdicts are the verdicts on the frames of reconnect.pcap, in
// order.
var reconnectVerdicts = []frameVerdict{
	{"handshake", ""}, {"handshake", ""}, {"packet", ""}, {"packet", ""}, {"packet", ""},
	{"handshake", ""}, {"handshake", ""}, {"packet", ""}, {"packet", ""},
	{"packet", "connection id 5 differs from the Welcome's 7"}, {"packet", "duplicate sequence"},
	{"handshake", ""}, {"handshake", ""}, {"packet", ""}, {"handshake", ""}, {"handshake", ""},
	{"handshake", ""}, {"handshake", ""}, {"packet", ""}, {"packet", ""},
	{"packet", "a Hello from a connected client's address"}, {"packet", "connection id 8 differs from the Welcome's 9"},
	{"packet", ""}, {"packet", "sequence too old"},
}

// reconnectCapture is a client that leaves with a Disconnect and comes back
// from the same address, to a new connection id (§7.3, §3), then a client
// whose first Welcome is lost: it repeats its Hello, gets a second Welcome
// with another id and a Rejected, and is connected with the last Welcome's
// id (§4.2, §4.3, §13). Each direction keeps its own §5.2 window.
func reconnectCapture(t *testing.T) []byte {
	srv, a, b := addrPort("10.3.0.1:4242"), addrPort("10.3.0.2:40000"), addrPort("10.3.0.3:40001")
	hello, rejected := rtype.AppendHello(nil), rtype.AppendRejected(nil)
	welcome := func(id uint32) []byte { return rtype.AppendWelcome(nil, id) }
	input := rtype.Input{InputSequence: 1, ClientTick: 1}
	list := []captured{
		{src: a, dst: srv, data: hello},
		{src: srv, dst: a, data: welcome(5)},
		{src: a, dst: srv, data: testPacket(t, 5, 1, input)},
		{src: srv, dst: a, data: testPacket(t, 5, 1, rtype.Pong{Timestamp: 1})},
		{src: a, dst: srv, data: testPacket(t, 5, 2, rtype.Disconnect{Reason: rtype.DisconnectClientQuit})},
		{src: a, dst: srv, data: hello},
		{src: srv, dst: a, data: welcome(7)},
		{src: a, dst: srv, data: testPacket(t, 7, 1, input)},
		{src: srv, dst: a, data: testPacket(t, 7, 1, rtype.Pong{Timestamp: 2})},
		{src: a, dst: srv, data: testPacket(t, 5, 3, rtype.Ping{Timestamp: 3})},
		{src: a, dst: srv, data: testPacket(t, 7, 1, rtype.Ping{Timestamp: 4})},

		{src: b, dst: srv, data: hello},
		{src: srv, dst: b, data: welcome(8)},
		{src: srv, dst: b, data: testPacket(t, 8, 1, rtype.Pong{Timestamp: 5})},
		{src: b, dst: srv, data: hello},
		{src: srv, dst: b, data: welcome(9)},
		{src: b, dst: srv, data: hello},
		{src: srv, dst: b, data: rejected},
		{src: srv, dst: b, data: testPacket(t, 9, 1, rtype.Pong{Timestamp: 6})},
		{src: b, dst: srv, data: testPacket(t, 9, 1, input)},
		{src: b, dst: srv, data: hello},
		{src: srv, dst: b, data: testPacket(t, 8, 2, rtype.Pong{Timestamp: 7})},
		{src: b, dst: srv, data: testPacket(t, 9, 40, rtype.Ping{Timestamp: 8})},
		{src: b, dst: srv, data: testPacket(t, 9, 5, rtype.Ping{Timestamp: 9})},
	}
	if len(list) != len(reconnectVerdicts) {
		t.Fatalf("%d frames, %d verdicts", len(list), len(reconnectVerdicts))
	}
	for i := range list {
		list[i].time = captureEpoch.Add(time.Duration(i) * time.Millisecond)
	}
	var buf bytes.Buffer
	if err := writePcap(&buf, list); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// phasesFrame is one frame of phases.pcap with its verdict; a frame of
// kind "" is not a datagram of the protocol, which neither tool decodes.
type phasesFrame struct {
	captured
	frameVerdict
}

// phasesFrames are the frames of phases.pcap: a client welcomed twice, with
// two ids, that takes the first (§4.2, §13); empty datagrams while welcomed
// (§4.1, §5.4); a datagram cut by the capture, which takes no transition;
// an ICMP error quoting a Welcome, which is not one of the protocol's
// datagrams and takes no transition either; the server's packets after a
// client's Disconnect, until a new Welcome (§7.3).
func phasesFrames(t *testing.T) []phasesFrame {
	srv, c, e, d := addrPort("10.4.0.1:4242"), addrPort("10.4.0.2:40000"), addrPort("10.4.0.3:40001"), addrPort("10.4.0.4:40002")
	hello := rtype.AppendHello(nil)
	welcome := func(id uint32) []byte { return rtype.AppendWelcome(nil, id) }
	input := rtype.Input{InputSequence: 1, ClientTick: 1}
	pong := rtype.Pong{Timestamp: 1}
	quit := rtype.Disconnect{Reason: rtype.DisconnectClientQuit}
	ok := func(kind string) frameVerdict { return frameVerdict{kind, ""} }
	return []phasesFrame{
		{captured{src: c, dst: srv, data: hello}, ok("handshake")},
		{captured{src: c, dst: srv, data: hello}, ok("handshake")},
		{captured{src: srv, dst: c, data: welcome(5)}, ok("handshake")},
		{captured{src: srv, dst: c, data: welcome(6)}, ok("handshake")},
		{captured{src: srv, dst: c, data: testPacket(t, 6, 1, pong)}, ok("packet")},
		{captured{src: c, dst: srv, data: testPacket(t, 5, 1, input)}, ok("packet")},
		{captured{src: srv, dst: c, data: testPacket(t, 5, 1, pong)}, ok("packet")},
		{captured{src: srv, dst: c, data: testPacket(t, 6, 2, pong)}, frameVerdict{"packet", "connection id 6 differs from the Welcome's 5"}},
		{captured{src: c, dst: srv, data: testPacket(t, 5, 2, input)}, ok("packet")},
		{captured{src: c, dst: srv, data: hello}, frameVerdict{"packet", "a Hello from a connected client's address"}},

		{captured{src: e, dst: srv, data: hello}, ok("handshake")},
		{captured{src: srv, dst: e, data: welcome(11)}, ok("handshake")},
		{captured{src: e, dst: srv, data: []byte{}}, frameVerdict{"packet", "packet shorter than 16 bytes"}},
		{captured{src: srv, dst: e, data: []byte{}}, frameVerdict{"packet", "packet shorter than 16 bytes"}},
		// Cut after the Input: the Disconnect is not seen.
		{captured{src: e, dst: srv, data: testPacket(t, 11, 1, input, quit), snap: 14 + 20 + 8 + 16 + 13}, frameVerdict{"packet", "cut by the capture: 29 of 34 bytes"}},
		{captured{src: e, dst: srv, data: testPacket(t, 11, 1, input, quit), snap: 14 + 20 + 8}, frameVerdict{"packet", "cut by the capture: 0 of 34 bytes"}},
		{captured{src: e, dst: srv, data: testPacket(t, 11, 1, input, quit)}, ok("packet")},
		{captured{src: e, dst: srv, data: hello}, ok("handshake")},
		{captured{raw: icmpUnreachable(captured{src: srv, dst: e, data: welcome(12)})}, frameVerdict{}},
		{captured{src: e, dst: srv, data: testPacket(t, 12, 1, input)}, frameVerdict{"handshake", "magic"}},

		{captured{src: d, dst: srv, data: hello}, ok("handshake")},
		{captured{src: srv, dst: d, data: welcome(8)}, ok("handshake")},
		{captured{src: d, dst: srv, data: testPacket(t, 8, 1, input)}, ok("packet")},
		{captured{src: d, dst: srv, data: testPacket(t, 8, 2, quit)}, ok("packet")},
		{captured{src: srv, dst: d, data: testPacket(t, 8, 1, pong)}, frameVerdict{"packet", "after the client's Disconnect (§7.3)"}},
		{captured{src: srv, dst: d, data: testPacket(t, 8, 2, rtype.DestroyEntity{ServerTick: 9, NetworkID: 3, Reason: rtype.DestroyPlayerDisconnected})}, frameVerdict{"packet", "after the client's Disconnect (§7.3)"}},
		{captured{src: d, dst: srv, data: testPacket(t, 8, 3, quit)}, frameVerdict{"handshake", "magic"}},
		{captured{src: srv, dst: d, data: []byte{1, 2, 3}}, frameVerdict{"packet", "packet shorter than 16 bytes"}},
		{captured{src: d, dst: srv, data: hello}, ok("handshake")},
		{captured{src: srv, dst: d, data: welcome(9)}, ok("handshake")},
		{captured{src: srv, dst: d, data: testPacket(t, 8, 3, pong)}, frameVerdict{"packet", "connection id 8 differs from the Welcome's 9"}},
		{captured{src: srv, dst: d, data: testPacket(t, 9, 1, pong)}, ok("packet")},
	}
}

// phasesCapture writes phasesFrames.
func phasesCapture(t *testing.T) []byte {
	frames := phasesFrames(t)
	list := make([]captured, len(frames))
	for i, f := range frames {
		list[i] = f.captured
		list[i].time = captureEpoch.Add(time.Duration(i) * time.Millisecond)
	}
	var buf bytes.Buffer
	if err := writePcap(&buf, list); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// testPacket builds a connected packet of connection id with the messages.
func testPacket(t *testing.T, id, seq uint32, msgs ...rtype.Message) []byte {
	t.Helper()
	var b rtype.Builder
	if err := b.Reset(rtype.PacketHeader{ConnectionID: id, Sequence: seq}); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if err := rtype.Add(&b, m); err != nil {
			t.Fatal(err)
		}
	}
	return bytes.Clone(b.Bytes())
}

// hugeCaplen copies a little-endian pcapng and makes its first enhanced
// packet block claim 2 GiB of captured data.
func hugeCaplen(t *testing.T, n []byte) []byte {
	b := bytes.Clone(n)
	for off := 0; off+8 <= len(b); {
		typ := binary.LittleEndian.Uint32(b[off:])
		length := int(binary.LittleEndian.Uint32(b[off+4:]))
		if typ == 6 {
			binary.LittleEndian.PutUint32(b[off+20:], 0x7fffffff)
			return b
		}
		off += length
	}
	t.Fatal("no enhanced packet block")
	return nil
}

// mixedCapture is a capture with the server on port 5000, traffic that is
// not the protocol's, a Welcome a client must ignore, a cut datagram, an IP
// fragment, a packet with another connection's id, and a second client whose
// first datagram is not a handshake.
func mixedCapture(t *testing.T) []byte {
	srv, cli, other := addrPort("10.0.0.1:5000"), addrPort("10.0.0.2:40000"), addrPort("10.0.0.3:40001")
	at := func(i int) time.Time { return captureEpoch.Add(time.Duration(i) * 10 * time.Millisecond) }
	arp := make([]byte, 42)
	binary.BigEndian.PutUint16(arp[12:14], 0x0806)
	pkt := func(id, seq uint32, msgs ...rtype.Message) []byte { return testPacket(t, id, seq, msgs...) }
	welcome0 := append(rtype.AppendHello(nil)[:5], 2, 0, 0, 0, 0)
	input := pkt(9, 1, rtype.Input{InputSequence: 1, ClientTick: 10, Actions: rtype.ActionLeft})
	list := []captured{
		{raw: arp},
		{src: addrPort("10.0.0.2:33333"), dst: addrPort("10.0.0.53:53"), data: []byte("not rtype")},
		{src: cli, dst: srv, data: rtype.AppendHello(nil)},
		{src: srv, dst: cli, data: welcome0},
		{src: cli, dst: srv, data: rtype.AppendHello(nil)},
		{src: srv, dst: cli, data: rtype.AppendWelcome(nil, 9)},
		{src: cli, dst: srv, data: input},
		{src: cli, dst: srv, data: pkt(9, 2, rtype.Ping{Timestamp: 5}), snap: 14 + 20 + 8 + 10},
		{src: srv, dst: cli, data: pkt(9, 1, rtype.Pong{Timestamp: 5}), fragment: true},
		{src: cli, dst: srv, data: pkt(8, 3, rtype.Input{InputSequence: 2, ClientTick: 11})},
		{src: other, dst: srv, data: input},
		{src: cli, dst: srv, data: input},
	}
	for i := range list {
		list[i].time = at(i)
	}
	var b bytes.Buffer
	if err := writePcap(&b, list); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rawIPCapture is a handshake and a packet in a capture of link type raw
// IPv4, as captured on a tunnel.
func rawIPCapture(t *testing.T) []byte {
	srv, cli := addrPort("192.0.2.1:4242"), addrPort("192.0.2.2:40000")
	list := []captured{
		{src: cli, dst: srv, data: rtype.AppendHello(nil)},
		{src: srv, dst: cli, data: rtype.AppendWelcome(nil, 3)},
		{src: srv, dst: cli, data: []byte{0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x86, 0, 4, 0, 0, 0, 42}},
	}
	var b bytes.Buffer
	w := pcapgo.NewWriterNanos(&b)
	if err := w.WriteFileHeader(65535, layers.LinkTypeRaw); err != nil {
		t.Fatal(err)
	}
	for i, c := range list {
		f := ipv4UDP(c, uint16(i+1))
		ci := gopacket.CaptureInfo{Timestamp: captureEpoch.Add(time.Duration(i) * time.Second), CaptureLength: len(f), Length: len(f)}
		if err := w.WritePacket(ci, f); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}
