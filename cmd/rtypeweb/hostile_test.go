//go:build !js

package main

import (
	"context"
	"crypto/tls"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"
)

// A peer that opens request streams each announcing a huge HTTP/3
// HEADERS frame and sends no more must not make the gateway hold memory
// for what it only announced: memory bounded whatever peers send (§12).
func TestGateway_AnnouncedHeadersBoundMemory(t *testing.T) {
	in, _ := startGateway(t, []netip.AddrPort{echoServer(t)}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, in.udp.LocalAddr().String(),
		&tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h3"}},
		&quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseWithError(0, "")
	before := heap()
	const streams, claim = 100, 1<<20 - 1 // a HEADERS frame's length, each
	frame := quicvarint.Append(quicvarint.Append(nil, 0x01), claim)
	var strs []*quic.Stream
	for range streams {
		str, err := conn.OpenStreamSync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := str.Write(frame); err != nil {
			t.Fatal(err)
		}
		strs = append(strs, str)
	}
	// Each stream is answered (refused) or reset; until then, it is held.
	for i, str := range strs {
		str.SetReadDeadline(time.Now().Add(5 * time.Second))
		var b [1]byte
		if _, err := str.Read(b[:]); isTimeout(err) {
			t.Fatalf("stream %d of %d never answered; the heap grew by %d MB",
				i, streams, (heap()-before)>>20)
		}
	}
	if grew := heap() - before; grew > 16<<20 {
		t.Errorf("the heap grew by %d MB for %d bytes sent", grew>>20, streams*len(frame))
	}
}

func isTimeout(err error) bool {
	e, ok := err.(interface{ Timeout() bool })
	return ok && e.Timeout()
}

// heap is the live heap after a collection.
func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// A QUIC connection that never opens a session, kept alive by PINGs, is
// closed once it has been idle for as long as a silent session may be:
// else each would hold its memory and goroutines for ever.
func TestGateway_ClosesConnectionWithoutSession(t *testing.T) {
	t.Parallel()
	in, _ := startGateway(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.idle = time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, in.udp.LocalAddr().String(),
		&tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h3"}},
		&quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseWithError(0, "")
	select {
	case <-conn.Context().Done():
	case <-ctx.Done():
		t.Fatal("a connection without a session still open after 10 s, -idle 1 s")
	}
}

// A session whose browser keeps sending outlives -idle: only a
// connection without one is closed for it.
func TestGateway_SessionKeepsItsConnection(t *testing.T) {
	t.Parallel()
	in, _ := startGateway(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.idle = time.Second })
	_, sess, err := dialGateway(t, in, "", "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 12 { // 3 s, three times -idle
		if err := sess.SendDatagram([]byte("ping")); err != nil {
			t.Fatalf("datagram %d: %v", i, err)
		}
		if _, err := sess.ReceiveDatagram(ctx); err != nil {
			t.Fatalf("no echo of datagram %d: %v", i, err)
		}
		time.Sleep(250 * time.Millisecond) // the browser's pace, not a wait
	}
}

// A connection whose only request never finishes its headers, a
// slowloris over HTTP/3, is closed all the same once silent for -idle.
func TestGateway_ClosesConnectionWithStalledRequest(t *testing.T) {
	t.Parallel()
	in, _ := startGateway(t, []netip.AddrPort{echoServer(t)}, func(o *options) { o.idle = time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, in.udp.LocalAddr().String(),
		&tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h3"}},
		&quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseWithError(0, "")
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	str.Write(quicvarint.Append(quicvarint.Append(nil, 0x01), 100)) // 100 bytes announced, none sent
	select {
	case <-conn.Context().Done():
	case <-ctx.Done():
		t.Fatal("a connection with a stalled request still open after 10 s, -idle 1 s")
	}
}
