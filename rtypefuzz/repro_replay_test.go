package rtypefuzz

import (
	"context"
	"encoding/binary"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// input is a packet of connection conn carrying an Input of sequence n.
func input(conn, seq, n uint32) []byte {
	b, _ := rtype.PacketHeader{ConnectionID: conn, Sequence: seq}.AppendBinary(nil)
	b, _ = rtype.AppendMessage(b, rtype.Input{InputSequence: n})
	return b
}

// inputSeq returns the sequence of the Input b carries, if any.
func inputSeq(b []byte) (uint32, bool) {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return 0, false
	}
	for m := range p.Messages() {
		var v rtype.Input
		if m.Type == rtype.TypeInput && v.UnmarshalBinary(m.Payload) == nil {
			return v.InputSequence, true
		}
	}
	return 0, false
}

// A replay sends each datagram at its recorded time after the first, to
// the millisecond, however far apart; it used to send one every 2 ms.
func TestReplayKeepsTimes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		var mu sync.Mutex
		arrived := map[uint32]time.Time{}
		nw.SetTap(func(at time.Time, _, to netip.AddrPort, b []byte) bool {
			if n, ok := inputSeq(b); ok && to == captureServer && n >= 1000 {
				mu.Lock()
				arrived[n] = at
				mu.Unlock()
			}
			return true
		})
		at := []time.Duration{0, 3 * time.Millisecond, 300 * time.Millisecond, 1250 * time.Millisecond, 1250 * time.Millisecond}
		var ds []Datagram
		for i, a := range at {
			ds = append(ds, Datagram{At: 5*time.Second + a, Out: true, Bytes: input(0x2a, uint32(100+i), uint32(1000+i))})
		}
		addr, ended, stop, err := serveOn(nw, planted.None)(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		if _, err := Replay(conformance.NetworkOf(nw.Listen), addr, ended, Oversize, 0x2a, ds); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		first, ok := arrived[1000]
		if !ok || len(arrived) != len(at) {
			t.Fatalf("%d of %d datagrams arrived", len(arrived), len(at))
		}
		for i, want := range at {
			if got := arrived[uint32(1000+i)].Sub(first); got < want || got > want+time.Millisecond {
				t.Errorf("datagram %d at +%v, want +%v (to 1 ms)", i, got, want)
			}
		}
	})
}

// script is what scriptServer does beyond a server's handshake and Pongs.
type script struct {
	// amplify, when not nil, tells which datagrams from an address never
	// welcomed it answers with a Rejected (§12), lag later.
	amplify func(b []byte) bool
	lag     time.Duration
	// pad: it sends each client welcomed a 600-byte datagram once a
	// second (§2.2), whatever the client sends.
	pad bool
	// repeat, when positive, numbers every repeat-th packet of a
	// connection as the one before it (§5.2).
	repeat uint32
}

// everything is an amplify that answers every datagram.
func everything([]byte) bool { return true }

// scriptServer welcomes Hellos and answers Pings, as a server does, and
// does what sc says.
func scriptServer(nw *rtypetest.Network, sc script) Start {
	return func(ctx context.Context) (netip.AddrPort, <-chan error, func(), error) {
		conn, err := nw.Listen(captureServer)
		if err != nil {
			return netip.AddrPort{}, nil, nil, err
		}
		var mu sync.Mutex
		welcomed := map[netip.AddrPort]*scripted{}
		ended, stop := goServe(ctx, func(ctx context.Context) error {
			var wg sync.WaitGroup
			defer wg.Wait()
			if sc.pad {
				wg.Go(func() { padEachSecond(ctx, conn, &mu, welcomed) })
			}
			go func() { <-ctx.Done(); conn.Close() }()
			buf := make([]byte, 1<<16)
			for {
				n, from, err := conn.ReadFromUDPAddrPort(buf)
				if err != nil {
					return nil
				}
				mu.Lock()
				out, stray := answer(buf[:n], from, welcomed, sc)
				mu.Unlock()
				switch {
				case out != nil && stray && sc.lag > 0:
					time.AfterFunc(sc.lag, func() { conn.WriteToUDPAddrPort(out, from) })
				case out != nil:
					conn.WriteToUDPAddrPort(out, from)
				}
			}
		})
		return captureServer, ended, stop, nil
	}
}

// answer is scriptServer's answer to b from from, nil for none; stray
// says it answers an address never welcomed.
func answer(b []byte, from netip.AddrPort, welcomed map[netip.AddrPort]*scripted, sc script) (out []byte, stray bool) {
	amplify := sc.amplify
	// A Hello from an address welcomed is a connected packet (§3).
	if t, _, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeHello && welcomed[from] == nil {
		welcomed[from] = &scripted{id: uint32(len(welcomed) + 1), repeat: sc.repeat}
		return rtype.AppendWelcome(nil, welcomed[from].id), false
	}
	c, ok := welcomed[from]
	switch ts, ping := pingOf(b); {
	case !ok && amplify != nil && amplify(b):
		return rtype.AppendRejected(nil), true
	case ok && ping:
		p, _ := c.header().AppendBinary(nil)
		p, _ = rtype.AppendMessage(p, rtype.Pong{Timestamp: ts})
		return p, false
	}
	return nil, false
}

// padEachSecond sends each client welcomed a 600-byte datagram once a
// second until ctx ends.
func padEachSecond(ctx context.Context, conn *rtypetest.Conn, mu *sync.Mutex, welcomed map[netip.AddrPort]*scripted) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		mu.Lock()
		for to, c := range welcomed {
			b, _ := c.header().AppendBinary(nil)
			conn.WriteToUDPAddrPort(append(b, make([]byte, 600-len(b))...), to)
		}
		mu.Unlock()
	}
}

// scripted is a connection of scriptServer: its id, the sequence of its
// last packet (§5.2), how many it sent, and script.repeat.
type scripted struct{ id, seq, sent, repeat uint32 }

// header is the header of the connection's next packet.
func (c *scripted) header() rtype.PacketHeader {
	c.sent++
	if c.repeat == 0 || c.sent%c.repeat != 0 {
		c.seq++
	}
	return rtype.PacketHeader{ConnectionID: c.id, Sequence: c.seq}
}

// pingOf returns the timestamp of the Ping packet b carries, if any.
func pingOf(b []byte) (uint32, bool) {
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return 0, false
	}
	for m := range p.Messages() {
		var v rtype.Ping
		if m.Type == rtype.TypePing && v.UnmarshalBinary(m.Payload) == nil {
			return v.Timestamp, true
		}
	}
	return 0, false
}

// §12: an amplification's reproducer is the one stray datagram answered,
// not the fuzz session's datagrams; it replays from a fresh address, and
// its capture shows the server welcoming a Hello, then the stray datagram
// and the answer.
func TestReproOfAmplification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		start := scriptServer(nw, script{amplify: everything})
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
		rep, err := FuzzServerStart(context.Background(), start, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		f := rep.Finding
		if f.Oracle != Amplification || len(f.Sent) != 1 || f.Conn != 0 {
			t.Fatalf("%s (%s), %d datagrams, conn %x; want %s, 1 datagram, conn 0", f.Oracle, f.Detail, len(f.Sent), f.Conn, Amplification)
		}
		if _, _, err := rtype.ParseHandshake(f.Sent[0].Bytes); err == nil {
			t.Errorf("the reproducer is a valid handshake datagram: % x", f.Sent[0].Bytes)
		}
		addr, ended, stop, err := start(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		if ok, err := Replay(o.Network, addr, ended, Amplification, 0, f.Sent); !ok || err != nil {
			t.Errorf("the reproducer did not replay: %v", err)
		}
		checkStrayCapture(t, f)
		// Against a server it cannot restart, the run's own.
		rep, err = FuzzServer(context.Background(), addr, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		if f := rep.Finding; f.Oracle != Amplification || len(f.Sent) < 1 || len(f.Sent) > lastKept || f.Conn != 0 || f.Shrunk {
			t.Errorf("%s, %d datagrams, conn %x, shrunk %v; want %s, the last strays, conn 0",
				f.Oracle, len(f.Sent), f.Conn, f.Shrunk, Amplification)
		}
		checkStrayCapture(t, rep.Finding)
	})
}

// checkStrayCapture checks that f's capture shows the server welcoming a
// Hello, then the stray datagram from another address, and its answer.
func checkStrayCapture(t *testing.T, f *Finding) {
	t.Helper()
	recs, ds := decodeCapture(t, f.Capture, captureServer.Port())
	if len(ds) < 4 || ds[0].Handshake != rtype.HandshakeHello || ds[1].Handshake != rtype.HandshakeWelcome {
		t.Fatalf("capture of %d datagrams, not opening with a Hello and its Welcome", len(ds))
	}
	stray, answer := recs[len(recs)-2], recs[len(recs)-1]
	if stray.payload != string(f.Sent[len(f.Sent)-1].Bytes) || stray.src == recs[0].src || answer.dst != stray.src {
		t.Errorf("the capture ends with %v -> %v and %v -> %v, not the stray datagram from another address and its answer",
			stray.src, stray.dst, answer.src, answer.dst)
	}
}

// A server that answers only some stray datagrams, the short ones, and
// late, after more went: the reproducer is still the one answered.
func TestReproOfLateAmplification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		short := func(b []byte) bool { return len(b) < 8 }
		start := scriptServer(nw, script{amplify: short, lag: 100 * time.Millisecond})
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
		rep, err := FuzzServerStart(context.Background(), start, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		f := rep.Finding
		if f.Oracle != Amplification || !f.Shrunk || len(f.Sent) != 1 || !short(f.Sent[0].Bytes) {
			t.Fatalf("%s, shrunk %v, %d datagrams; want %s, shrunk to 1 short datagram",
				f.Oracle, f.Shrunk, len(f.Sent), Amplification)
		}
	})
}

// A server whose own traffic breaks §2.2, a 600-byte datagram once a
// second, is told so with an empty reproducer, which replays.
func TestReproOfServerOwnTraffic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		start := scriptServer(nw, script{pad: true})
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
		began := time.Now()
		rep, err := FuzzServerStart(context.Background(), start, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		f, took := rep.Finding, time.Since(began)
		if f.Oracle != Oversize || !f.Unprovoked || len(f.Sent) != 0 || took > 10*time.Second {
			t.Errorf("%s, unprovoked %v, %d datagrams, in %v; want %s, unprovoked, none, in seconds",
				f.Oracle, f.Unprovoked, len(f.Sent), took, Oversize)
		}
		addr, ended, stop, err := start(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		if ok, err := Replay(o.Network, addr, ended, Oversize, 0, nil); !ok || err != nil {
			t.Errorf("the empty reproducer did not replay: %v", err)
		}
	})
}

// leakyServer is the planted careful server whose resident memory, as rss
// reads it, grows by 100 MiB for each datagram of 400 bytes or more it
// receives, from 100 MiB at each start.
func leakyServer(nw *rtypetest.Network) (Start, func() (uint64, error)) {
	var leaked atomic.Uint64
	nw.SetTap(func(_ time.Time, _, to netip.AddrPort, b []byte) bool {
		if to == captureServer && len(b) >= 400 {
			leaked.Add(1)
		}
		return true
	})
	start := func(ctx context.Context) (netip.AddrPort, <-chan error, func(), error) {
		leaked.Store(0)
		return serveOn(nw, planted.None)(ctx)
	}
	return start, func() (uint64, error) { return (1 + leaked.Load()) * 100 << 20, nil }
}

// §12: a memory finding is replayed and shrunk like the others: a server
// that leaks on datagrams of 400 bytes, past its bound at the third, is
// shrunk to 3 such datagrams, which replay to the finding.
func TestReproOfMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		start, rss := leakyServer(nw)
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute, RSS: rss, MaxRSS: 350 << 20}
		rep, err := FuzzServerStart(context.Background(), start, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		f := rep.Finding
		t.Logf("%s after %d datagrams: %s; %d after shrinking", f.Oracle, rep.Sent, f.Detail, len(f.Sent))
		if f.Oracle != MemoryGrew || !f.Shrunk || len(f.Sent) != 3 {
			t.Fatalf("%s, shrunk %v to %d datagrams; want %s shrunk to 3", f.Oracle, f.Shrunk, len(f.Sent), MemoryGrew)
		}
		for i, d := range f.Sent {
			if len(d.Bytes) < 400 {
				t.Errorf("datagram %d of %d bytes, which leaks nothing", i, len(d.Bytes))
			}
		}
		addr, ended, stop, err := start(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		if ok, _, err := ReplayServer(addr, ended, MemoryGrew, f.Conn, f.Sent, o); !ok || err != nil {
			t.Errorf("the reproducer did not replay: %v", err)
		}
	})
}

// chattyClient is a client that plays its session well (Hello until a
// Welcome, an Input every 50 ms acknowledging the highest sequence
// received) but sends, once a second, a 600-byte datagram of its own
// (§2.2): no datagram of the fuzzer is needed.
func chattyClient(nw *rtypetest.Network) ClientStart {
	return func(ctx context.Context, server netip.AddrPort) (<-chan error, func(), error) {
		conn, err := nw.Listen(captureClient)
		if err != nil {
			return nil, nil, err
		}
		ended, stop := goServe(ctx, func(ctx context.Context) error {
			defer conn.Close()
			var id, ack atomic.Uint32 // its Welcome's id, the highest sequence received
			go func() {
				buf := make([]byte, 1<<16)
				for {
					n, _, err := conn.ReadFromUDPAddrPort(buf)
					if err != nil {
						return
					}
					if t, c, err := rtype.ParseHandshake(buf[:n]); err == nil && t == rtype.HandshakeWelcome {
						id.CompareAndSwap(0, c)
					} else if p, err := rtype.ParsePacket(buf[:n]); err == nil && p.Header().ConnectionID == id.Load() {
						ack.Store(max(ack.Load(), p.Header().Sequence))
					}
				}
			}()
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for seq := uint32(1); ; {
				select {
				case <-ctx.Done():
					return nil
				case <-tick.C:
				}
				c := id.Load()
				if c == 0 {
					conn.WriteToUDPAddrPort(rtype.AppendHello(nil), server)
					continue
				}
				b := input(c, seq, seq)
				binary.BigEndian.PutUint32(b[8:], ack.Load())
				if seq%20 == 0 {
					b = append(b, make([]byte, 600-len(b))...)
					binary.BigEndian.PutUint16(b[rtype.PacketHeaderSize+2:], uint16(600-rtype.PacketHeaderSize-rtype.MessageHeaderSize))
				}
				conn.WriteToUDPAddrPort(b, server)
				seq++
			}
		})
		return ended, stop, nil
	}
}

// A finding that fires with no fuzzed datagram, the client's own traffic
// breaking §2.2, is told so with an empty reproducer, in seconds: it used
// to be shrunk for minutes to dozens of datagrams.
func TestReproOfOwnTraffic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		start := chattyClient(nw)
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
		began := time.Now()
		rep, err := FuzzClient(context.Background(), start, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding: %v", err)
		}
		f := rep.Finding
		took := time.Since(began)
		t.Logf("%s: %s; %d datagrams, unprovoked %v, in %v", f.Oracle, f.Detail, len(f.Sent), f.Unprovoked, took)
		if f.Oracle != Oversize || !f.Unprovoked || len(f.Sent) != 0 {
			t.Errorf("%s, unprovoked %v, %d datagrams; want %s, unprovoked, none", f.Oracle, f.Unprovoked, len(f.Sent), Oversize)
		}
		if took > 10*time.Second {
			t.Errorf("found and told in %v, want seconds", took)
		}
		if ok, err := ReplayClient(context.Background(), o.Network, netip.AddrPort{}, start, Oversize, nil); !ok || err != nil {
			t.Errorf("the empty reproducer did not replay: %v", err)
		}
	})
}

// A client's replay sends each datagram at its recorded time after the
// first, the Welcome first, to the millisecond.
func TestReplayClientKeepsTimes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		at := []time.Duration{0, 4 * time.Millisecond, 300 * time.Millisecond, 900 * time.Millisecond}
		ds := []Datagram{{At: 2 * time.Second, Out: true, Bytes: rtype.AppendWelcome(nil, 7)}}
		for i, a := range at[1:] {
			b, _ := rtype.PacketHeader{ConnectionID: 7, Sequence: uint32(1 + i)}.AppendBinary(nil)
			ds = append(ds, Datagram{At: 2*time.Second + a, Out: true, Bytes: b})
		}
		var mu sync.Mutex
		arrived := map[string]time.Time{}
		nw.SetTap(func(at time.Time, _, _ netip.AddrPort, b []byte) bool {
			mu.Lock()
			if _, ok := arrived[string(b)]; !ok {
				arrived[string(b)] = at
			}
			mu.Unlock()
			return true
		})
		_, err := ReplayClient(context.Background(), conformance.NetworkOf(nw.Listen), netip.AddrPort{}, playOn(nw, planted.ClientNone), Oversize, ds)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		first, ok := arrived[string(ds[0].Bytes)]
		if !ok {
			t.Fatal("no Welcome")
		}
		for i, want := range at {
			got, ok := arrived[string(ds[i].Bytes)]
			if d := got.Sub(first); !ok || d < want || d > want+time.Millisecond {
				t.Errorf("datagram %d at +%v (sent %v), want +%v (to 1 ms)", i, d, ok, want)
			}
		}
	})
}

// §5.2: a server that numbers 1 packet in 100 as the one before it, each
// carrying its own Pong, is found by the session's monitor: a repeat with
// other bytes is no copy the path made, lossy as the path may be.
func TestFuzzServerRepeatOneIn100(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		start := scriptServer(nw, script{repeat: 100})
		o := Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: time.Minute}
		rep, err := FuzzServerStart(context.Background(), start, o)
		if err != nil || rep.Finding == nil {
			t.Fatalf("no finding in %v: %v", o.Duration, err)
		}
		if f := rep.Finding; f.Oracle != Invalid || !strings.Contains(f.Detail, "repeated sequence") {
			t.Errorf("%s: %s; want %s, a repeated sequence", f.Oracle, f.Detail, Invalid)
		}
	})
}
