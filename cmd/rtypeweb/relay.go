//go:build !js

package main

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype"
)

// browser is the WebTransport side of one session: its datagrams.
type browser interface {
	ReceiveDatagram(ctx context.Context) ([]byte, error)
	SendDatagram(b []byte) error
}

// upstream is the UDP socket of one session, its own so that the server
// sees one address per player (§3).
type upstream interface {
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
	ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error)
	Close() error
}

// errIdle ends a relay whose browser stayed silent past the timeout.
var errIdle = errors.New("idle past the protocol's timeout")

// relay moves one session's datagrams between a browser and the server,
// and only that server: the address is fixed when the session opens.
type relay struct {
	br     browser
	conn   upstream
	server netip.AddrPort
	total  *counters
	mine   sessionCounters
	limit  bucket
	idle   time.Duration
	lastUp atomic.Int64 // unix ns of the browser's last datagram
}

// run relays until the browser leaves, the session idles past r.idle, the
// socket fails or ctx ends, and returns why. It closes the socket, so the
// port is released whatever ended it.
func (r *relay) run(ctx context.Context) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r.lastUp.Store(time.Now().UnixNano())
	var wg sync.WaitGroup
	wg.Go(func() { cancel(r.up(ctx)) })
	wg.Go(func() { cancel(r.down()) })
	wg.Go(func() { cancel(r.watch(ctx)) })
	<-ctx.Done()
	r.conn.Close() // ends down
	wg.Wait()
	return context.Cause(ctx)
}

// up relays the browser's datagrams to the server, within the bounds.
func (r *relay) up(ctx context.Context) error {
	for {
		b, err := r.br.ReceiveDatagram(ctx)
		if err != nil {
			return err
		}
		now := time.Now()
		r.lastUp.Store(now.UnixNano())
		switch {
		case len(b) > rtype.MaxDatagramSize:
			r.drop(dropTooLarge)
		case !r.limit.take(now):
			r.drop(dropRate)
		default:
			if _, err := r.conn.WriteToUDPAddrPort(b, r.server); err != nil {
				r.drop(dropSendFailed)
				continue
			}
			r.mine.up.Add(1)
			r.total.upDatagrams.Add(1)
			r.total.upBytes.Add(uint64(len(b)))
		}
	}
}

// down relays the server's datagrams to the browser through a queue of
// queueLen: a session that cannot send as fast as the server sends (its
// QUIC congestion window, a browser slow to acknowledge) loses the oldest
// datagrams queued, rather than stall the socket and deliver every later
// Snapshot late. The read buffer holds one byte more than a
// datagram may, to see one too large (§2.2).
func (r *relay) down() error {
	q := newSendQueue()
	defer q.close()
	go q.run(r.br, r)
	var buf [rtype.MaxDatagramSize + 1]byte
	for {
		n, from, err := r.conn.ReadFromUDPAddrPort(buf[:])
		if err != nil {
			return err
		}
		switch {
		case unmapped(from) != r.server:
			r.drop(dropNotFromServer)
		case n > rtype.MaxDatagramSize:
			r.drop(dropTooLarge)
		case !q.put(buf[:n]):
			r.drop(dropBacklog)
		}
	}
}

// watch ends the session once the browser sent nothing for r.idle.
func (r *relay) watch(ctx context.Context) error {
	t := time.NewTicker(r.idle / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			if now.Sub(time.Unix(0, r.lastUp.Load())) > r.idle {
				r.total.idleClosed.Add(1)
				return errIdle
			}
		}
	}
}

func (r *relay) drop(reason int) {
	r.mine.drops[reason].Add(1)
	r.total.drops[reason].Add(1)
}

// unmapped turns an IPv4-mapped IPv6 source into the IPv4 address it is.
func unmapped(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
