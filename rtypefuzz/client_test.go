package rtypefuzz_test

import (
	"context"
	"encoding/binary"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypetest"
)

// fakeClient is a client that plays well (a Hello a second until a
// Welcome, §4.2; then an Input every 1/60 s, §7.1, acknowledging the
// server's packets, §5.1) and then, its time after the Welcome, does the
// one thing it is set to do. A zero duration never comes.
type fakeClient struct {
	quitAfter      time.Duration // Disconnect, reason 1, then status 0 (§7.3)
	exitAfter      time.Duration // status 0, without a Disconnect
	hangAfter      time.Duration // no datagram any more, until stopped
	oversizeAfter  time.Duration // one datagram of 600 bytes (§2.2)
	wrongConnAfter time.Duration // packets with another connection id
	// sloppyWelcome takes any datagram of 10 bytes or more with the
	// header of a Welcome for one, extra bytes and all (§4.3).
	sloppyWelcome bool
}

var fakeClientAddr = netip.MustParseAddrPort("10.0.0.3:0")

func (fc fakeClient) start(nw *rtypetest.Network) rtypefuzz.ClientStart {
	return func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
		conn, err := nw.Listen(fakeClientAddr)
		if err != nil {
			return nil, nil, err
		}
		cctx, cancel := context.WithCancel(ctx)
		ended := make(chan error, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			err := fc.play(cctx, conn, server)
			conn.Close()
			if cctx.Err() == nil {
				ended <- err
			}
		}()
		return ended, func() { cancel(); <-done }, nil
	}
}

func (fc fakeClient) play(ctx context.Context, conn *rtypetest.Conn, server netip.AddrPort) error {
	in := make(chan []byte, 64)
	go func() {
		buf := make([]byte, 2048)
		for {
			n, _, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				close(in)
				return
			}
			select {
			case in <- append([]byte(nil), buf[:n]...):
			default:
			}
		}
	}()
	frame := time.NewTicker(time.Second / 60)
	defer frame.Stop()
	var id, seq, highest uint32
	var welcomed time.Time
	oversized := false
	_, _ = conn.WriteToUDPAddrPort(rtype.AppendHello(nil), server)
	for frames := 1; ; frames++ {
		select {
		case <-ctx.Done():
			return nil
		case b, ok := <-in:
			if !ok {
				return nil
			}
			switch {
			case id == 0 && fc.sloppyWelcome && len(b) >= rtype.WelcomeSize &&
				binary.BigEndian.Uint32(b) == rtype.Magic && b[4] == rtype.Version && b[5] == 2:
				id, welcomed = binary.BigEndian.Uint32(b[6:]), time.Now()
			case id == 0:
				if t, cid, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeWelcome {
					id, welcomed = cid, time.Now()
				}
			case len(b) >= rtype.PacketHeaderSize && binary.BigEndian.Uint32(b) == id:
				if s := binary.BigEndian.Uint32(b[4:]); highest == 0 || rtype.SequenceNewer(s, highest) {
					highest = s
				}
			}
			continue
		case <-frame.C:
		}
		if id == 0 {
			if frames%60 == 0 {
				_, _ = conn.WriteToUDPAddrPort(rtype.AppendHello(nil), server)
			}
			continue
		}
		since := time.Since(welcomed)
		due := func(d time.Duration) bool { return d > 0 && since >= d }
		if due(fc.hangAfter) {
			<-ctx.Done()
			return nil
		}
		if due(fc.exitAfter) {
			return nil
		}
		cid := id
		if due(fc.wrongConnAfter) {
			cid = id + 1
		}
		seq++
		h := rtype.PacketHeader{ConnectionID: cid, Sequence: seq, Ack: highest}
		b, _ := h.AppendBinary(nil)
		if due(fc.quitAfter) {
			b, _ = rtype.AppendMessage(b, rtype.Disconnect{Reason: rtype.DisconnectClientQuit})
			_, _ = conn.WriteToUDPAddrPort(b, server)
			return nil
		}
		b, _ = rtype.AppendMessage(b, rtype.Input{InputSequence: seq, ClientTick: uint32(frames)})
		if due(fc.oversizeAfter) && !oversized {
			b, oversized = append(b, make([]byte, 600-len(b))...), true
		}
		_, _ = conn.WriteToUDPAddrPort(b, server)
	}
}

// fuzzFake fuzzes fc in a bubble for at most d of virtual time.
func fuzzFake(t *testing.T, fc fakeClient, d time.Duration) *rtypefuzz.Report {
	t.Helper()
	var rep *rtypefuzz.Report
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: d}
		var err error
		if rep, err = rtypefuzz.FuzzClient(context.Background(), fc.start(nw), o); err != nil {
			t.Fatal(err)
		}
	})
	return rep
}

// §7.3: a client whose player quits, Disconnect then status 0, is no
// finding: a fresh client plays the next session.
func TestClientQuitIsNoFinding(t *testing.T) {
	rep := fuzzFake(t, fakeClient{quitAfter: 300 * time.Millisecond}, 5*time.Second)
	if rep.Finding != nil {
		t.Fatalf("%s: %s", rep.Finding.Oracle, rep.Finding.Detail)
	}
	if rep.Sessions < 5 {
		t.Errorf("%d sessions in 5 s of clients quitting after 300 ms", rep.Sessions)
	}
}

// The fuzzer's findings of a client, each from what a client did on its
// own: an end without a Disconnect (§12), silence (§7.1), a datagram over
// 548 bytes (§2.2), a packet of another connection id (§4.3).
func TestClientOracles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fc     fakeClient
		oracle rtypefuzz.Oracle
		detail string
	}{
		{"exit 0 without Disconnect", fakeClient{exitAfter: 300 * time.Millisecond}, rtypefuzz.Exited, "no Disconnect"},
		{"hang", fakeClient{hangAfter: 300 * time.Millisecond}, rtypefuzz.StoppedAnswering, "§7.1"},
		{"oversize", fakeClient{oversizeAfter: 300 * time.Millisecond}, rtypefuzz.Oversize, "600-byte"},
		{"wrong connection id", fakeClient{wrongConnAfter: 300 * time.Millisecond}, rtypefuzz.Invalid, "connectionId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := fuzzFake(t, tc.fc, 10*time.Second)
			f := rep.Finding
			if f == nil {
				t.Fatalf("no finding in %v", rep.Elapsed)
			}
			t.Logf("%s: %s; shrunk %t to %d datagrams", f.Oracle, f.Detail, f.Shrunk, len(f.Sent))
			if f.Oracle != tc.oracle || !strings.Contains(f.Detail, tc.detail) {
				t.Errorf("%s: %s; want %s, %q", f.Oracle, f.Detail, tc.oracle, tc.detail)
			}
		})
	}
}

// §4.3: a client that takes a Welcome with bytes past its 10 is found by
// the broken handshakes sent before the real Welcome: it then writes the
// broken one's id, or a packet before any valid Welcome. The shrunk
// reproducer keeps the broken Welcome and the real one.
func TestClientSloppyWelcome(t *testing.T) {
	rep := fuzzFake(t, fakeClient{sloppyWelcome: true}, time.Minute)
	f := rep.Finding
	if f == nil {
		t.Fatalf("no finding in %v, %d sessions", rep.Elapsed, rep.Sessions)
	}
	t.Logf("%s after %d sessions: %s; %d datagrams", f.Oracle, rep.Sessions, f.Detail, len(f.Sent))
	if f.Oracle != rtypefuzz.Invalid || !f.Shrunk || len(f.Sent) > 3 {
		t.Errorf("%s, shrunk %t to %d datagrams; want sent-invalid, 3 or fewer", f.Oracle, f.Shrunk, len(f.Sent))
	}
	broken := false
	for _, d := range f.Sent {
		if len(d.Bytes) > rtype.WelcomeSize && binary.BigEndian.Uint32(d.Bytes) == rtype.Magic && d.Bytes[5] == 2 {
			broken = true
		}
	}
	if !broken {
		t.Errorf("no Welcome with extra bytes among the %d datagrams kept", len(f.Sent))
	}
}

// A client that never says Hello is unreachable: FuzzClient and
// ReplayClient return ErrUnreachable after StartWait, not a finding.
func TestClientNeverSaysHello(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		mute := func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
			return make(chan error), func() {}, nil
		}
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
		if _, err := rtypefuzz.FuzzClient(context.Background(), mute, o); !errors.Is(err, rtypefuzz.ErrUnreachable) {
			t.Errorf("FuzzClient: %v, want ErrUnreachable", err)
		}
		_, err := rtypefuzz.ReplayClient(context.Background(), o.Network, netip.AddrPort{}, mute, rtypefuzz.Exited, nil)
		if !errors.Is(err, rtypefuzz.ErrUnreachable) {
			t.Errorf("ReplayClient: %v, want ErrUnreachable", err)
		}
	})
}
