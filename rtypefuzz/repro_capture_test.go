package rtypefuzz

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/internal/wiredump"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

var (
	captureServer = netip.MustParseAddrPort("10.0.0.1:4242")
	captureClient = netip.MustParseAddrPort("10.0.0.2:0")
)

// serveOn starts the planted server with bug on nw afresh at each call,
// as a process would be.
func serveOn(nw *rtypetest.Network, bug planted.Bug) Start {
	return func(ctx context.Context) (netip.AddrPort, <-chan error, func(), error) {
		conn, err := nw.Listen(captureServer)
		if err != nil {
			return netip.AddrPort{}, nil, nil, err
		}
		ended, stop := goServe(ctx, func(ctx context.Context) error { return planted.Serve(ctx, conn, bug) })
		return captureServer, ended, stop, nil
	}
}

// playOn starts the planted client with bug on nw afresh at each call.
func playOn(nw *rtypetest.Network, bug planted.ClientBug) ClientStart {
	return func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
		conn, err := nw.Listen(captureClient)
		if err != nil {
			return nil, nil, err
		}
		ended, stop := goServe(ctx, func(ctx context.Context) error { return planted.Play(ctx, conn, server, bug) })
		return ended, stop, nil
	}
}

// goServe runs f until stop, which returns once f did; ended gets f's
// error when it ends by itself.
func goServe(ctx context.Context, f func(context.Context) error) (<-chan error, func()) {
	ctx, cancel := context.WithCancel(ctx)
	ended := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := f(ctx); err != nil && ctx.Err() == nil {
			ended <- err
		}
	}()
	return ended, func() { cancel(); <-done }
}

// decodeCapture writes capture as a pcap file, reads it back and decodes
// each record as rtypedump does (wiredump.Sides, the server on port).
func decodeCapture(t *testing.T, capture []Datagram, port uint16) ([]pcapRecord, []wiredump.Decoded) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "finding-1.pcap")
	if err := WritePcap(path, capture); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := readPcap(t, b)
	sides := wiredump.NewSides(port)
	var ds []wiredump.Decoded
	for _, r := range recs {
		_, client, toServer, ok := sides.Classify(r.src, r.dst)
		if !ok {
			t.Fatalf("%v -> %v: neither end on port %d", r.src, r.dst, port)
		}
		ds = append(ds, sides.Decode(client, toServer, []byte(r.payload)))
	}
	return recs, ds
}

// checkOpening checks that a capture decodes as what each datagram is: a
// Hello from the client first, a Welcome to it, then none an invalid
// handshake, and every datagram of the reproducer (sent, its id the
// session's, which a replay replaces) a connected packet (§3).
func checkOpening(t *testing.T, recs []pcapRecord, ds []wiredump.Decoded, sent []Datagram, fromServer bool) {
	t.Helper()
	if len(ds) < 2 {
		t.Fatalf("%d datagrams in the capture", len(ds))
	}
	if ds[0].Kind != wiredump.Handshake || ds[0].Err != nil || ds[0].Handshake != rtype.HandshakeHello {
		t.Errorf("datagram 0 is a %v (%v), want a Hello", ds[0].Kind, ds[0].Err)
	}
	w := -1
	for i, d := range ds {
		if d.Kind == wiredump.Handshake && d.Err == nil && d.Handshake == rtype.HandshakeWelcome {
			w = i
			break
		}
	}
	if w < 0 || w >= len(ds)-1 {
		t.Fatalf("no Welcome before the reproducer's datagrams (at %d of %d)", w, len(ds))
	}
	for i := w + 1; i < len(ds); i++ {
		if ds[i].Kind == wiredump.Handshake && ds[i].Err != nil {
			t.Errorf("datagram %d, after the Welcome, read as an invalid handshake: %v", i, ds[i].Err)
		}
	}
	found := 0
	for _, s := range sent {
		for i := w + 1; i < len(recs); i++ {
			if sameBody(recs[i].payload, s.Bytes) && (recs[i].src.Port() == captureServer.Port()) == fromServer {
				found++
				if ds[i].Kind != wiredump.Packet {
					t.Errorf("datagram %d, % x, decoded as a %v: %v", i, s.Bytes[:min(len(s.Bytes), 16)], ds[i].Kind, ds[i].Err)
				}
				break
			}
		}
	}
	if found != len(sent) {
		t.Errorf("%d of the reproducer's %d datagrams after the Welcome in the capture", found, len(sent))
	}
}

// A server's finding, shrunk or as the run found it (a server it cannot
// restart): its pcap holds the session's opening, the Hello and the
// Welcome first, and rtypedump's decoder reads each datagram of the
// reproducer as the connected packet it is.
func TestPcapHoldsOpening(t *testing.T) {
	for _, restart := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			nw := rtypetest.NewNetwork(1)
			o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
			start := serveOn(nw, planted.IDZero)
			var rep *Report
			var err error
			if restart {
				rep, err = FuzzServerStart(context.Background(), start, o)
			} else {
				addr, _, stop, _ := start(context.Background())
				defer stop()
				rep, err = FuzzServer(context.Background(), addr, o)
			}
			if err != nil || rep.Finding == nil {
				t.Fatalf("restart %v: no finding: %v", restart, err)
			}
			f := rep.Finding
			if f.Shrunk != restart || len(f.Sent) == 0 {
				t.Errorf("restart %v: shrunk %v, %d datagrams", restart, f.Shrunk, len(f.Sent))
			}
			recs, ds := decodeCapture(t, f.Capture, captureServer.Port())
			checkOpening(t, recs, ds, f.Sent, false)
			if ds[0].Kind == wiredump.Handshake && recs[0].dst != captureServer {
				t.Errorf("restart %v: the Hello went to %v, not the server", restart, recs[0].dst)
			}
		})
	}
}

// A client's finding: its pcap holds the client's Hello, the Welcome and
// the reproducer's packets, decoded as packets.
func TestPcapHoldsClientOpening(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute, Listen: captureServer}
		rep, err := FuzzClient(context.Background(), playOn(nw, planted.Archetype), o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		f := rep.Finding
		packets := f.Sent[welcomeAt(f.Sent)+1:]
		if len(packets) == 0 {
			t.Fatalf("no packet after the Welcome in %d datagrams", len(f.Sent))
		}
		recs, ds := decodeCapture(t, f.Capture, captureServer.Port())
		checkOpening(t, recs, ds, packets, true)
	})
}

// sameBody reports whether a datagram of a capture is b, sent again in
// another session: the same bytes but for a packet's connectionId (§5.1).
func sameBody(got string, b []byte) bool {
	if len(b) < rtype.PacketHeaderSize {
		return got == string(b)
	}
	return len(got) == len(b) && got[4:] == string(b[4:])
}
