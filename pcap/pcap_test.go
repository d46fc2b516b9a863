package pcap

import (
	"bytes"
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/session"
)

// A file is its header, then per datagram a record whose frame carries it
// in Ethernet, IPv4 with a valid header checksum (or IPv6 with a valid UDP
// checksum) and UDP with the right ports and length, at its time.
func TestRecordFrames(t *testing.T) {
	at := time.Unix(1700000000, 250000000)
	v4a, v4b := netip.MustParseAddrPort("192.0.2.7:5000"), netip.MustParseAddrPort("192.0.2.1:4242")
	v6a, v6b := netip.MustParseAddrPort("[2001:db8::1]:5000"), netip.MustParseAddrPort("[2001:db8::2]:4242")
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	_ = w.Write(at, v4a, v4b, []byte("abc"))
	_ = w.Write(at.Add(1500*time.Millisecond), v6a, v6b, []byte("de"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if binary.LittleEndian.Uint32(b) != magic || binary.LittleEndian.Uint32(b[20:]) != linkEthernet || binary.LittleEndian.Uint32(b[16:]) != SnapLen {
		t.Fatalf("pcap header % x", b[:HeaderLen])
	}
	b = b[HeaderLen:]
	for i, want := range []struct {
		payload string
		ethType uint16
		sec     uint32
		usec    uint32
	}{{"abc", 0x0800, 1700000000, 250000}, {"de", 0x86dd, 1700000001, 750000}} {
		if s, us := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]); s != want.sec || us != want.usec {
			t.Errorf("record %d at %d.%06d, want %d.%06d", i, s, us, want.sec, want.usec)
		}
		n := int(binary.LittleEndian.Uint32(b[8:]))
		if orig := int(binary.LittleEndian.Uint32(b[12:])); orig != n {
			t.Errorf("record %d: %d bytes kept of %d", i, n, orig)
		}
		frame := b[RecordHeaderLen : RecordHeaderLen+n]
		b = b[RecordHeaderLen+n:]
		if et := binary.BigEndian.Uint16(frame[12:]); et != want.ethType {
			t.Errorf("record %d: EtherType %#x, want %#x", i, et, want.ethType)
		}
		ip := frame[14:]
		hl := 40
		if want.ethType == 0x0800 {
			hl = 20
			if checksum(ip[:20], 0) != 0 {
				t.Errorf("record %d: IPv4 header checksum does not verify", i)
			}
		}
		udp := ip[hl:]
		if binary.BigEndian.Uint16(udp) != 5000 || binary.BigEndian.Uint16(udp[2:]) != 4242 ||
			int(binary.BigEndian.Uint16(udp[4:])) != 8+len(want.payload) || string(udp[8:]) != want.payload {
			t.Errorf("record %d: UDP % x", i, udp)
		}
	}
	if len(b) != 0 {
		t.Errorf("%d bytes after the last record", len(b))
	}
}

// The hooks record what the binding receives and sends that the next
// hooks pass; an
// unspecified local address is recorded as loopback for a loopback peer.
func TestHooks(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf)
	peer := netip.MustParseAddrPort("127.0.0.1:5000")
	drop := func(_ netip.AddrPort, b []byte) bool { return string(b) != "drop" }
	h := w.Hooks(netip.MustParseAddrPort("[::]:4242"), hooksOf(drop))
	if !h.OnReceive(peer, []byte("in")) || h.OnReceive(peer, []byte("drop")) || !h.OnSend(peer, []byte("out")) || h.OnSend(peer, []byte("drop")) {
		t.Error("the hooks do not pass the next hooks' verdicts on")
	}
	_ = w.Close()
	want := AppendHeader(nil)
	local := netip.MustParseAddrPort("127.0.0.1:4242")
	b := buf.Bytes()
	for _, r := range []struct {
		from, to netip.AddrPort
		p        string
	}{{peer, local, "in"}, {local, peer, "out"}} {
		rec := AppendRecord(nil, time.Time{}, r.from, r.to, []byte(r.p))
		want = append(want, rec[8:]...) // the frame, with its lengths; the time varies
	}
	got := b[:HeaderLen]
	for rest := b[HeaderLen:]; len(rest) > 0; {
		n := int(binary.LittleEndian.Uint32(rest[8:]))
		got = append(got, rest[8:RecordHeaderLen+n]...)
		rest = rest[RecordHeaderLen+n:]
	}
	if !bytes.Equal(got, want) {
		t.Errorf("recorded:\n% x\nwant:\n% x", got, want)
	}
}

// hooksOf returns hooks that pass each datagram f passes, both ways.
func hooksOf(f func(netip.AddrPort, []byte) bool) *session.Hooks {
	return &session.Hooks{OnReceive: f, OnSend: f}
}
