//go:build !js

package main

import "github.com/rtypeproto/rtype"

// queueLen bounds the server's datagrams waiting for a session: 8, 0.4 s
// of Snapshots at the example's 20 a second; older ones are stale.
const queueLen = 8

// sendQueue hands the server's datagrams to the browser from a goroutine
// of its own, in a fixed pool of buffers, so that the socket's reader
// never blocks on the session.
type sendQueue struct {
	bufs [queueLen][rtype.MaxDatagramSize]byte
	free chan int
	full chan queued
}

type queued struct{ i, n int }

func newSendQueue() *sendQueue {
	q := &sendQueue{free: make(chan int, queueLen), full: make(chan queued, queueLen)}
	for i := range queueLen {
		q.free <- i
	}
	return q
}

// put copies b into a free buffer and queues it. With none free it drops
// the oldest datagram queued, as the newest Snapshot is worth more than
// any before it (§8.1), and reports false.
func (q *sendQueue) put(b []byte) bool {
	select {
	case i := <-q.free:
		q.full <- queued{i, copy(q.bufs[i][:], b)}
		return true
	default:
	}
	select {
	case d := <-q.full:
		q.full <- queued{d.i, copy(q.bufs[d.i][:], b)}
	default: // every buffer in flight: the sender holds the only one
	}
	return false
}

// run sends the queued datagrams until close.
func (q *sendQueue) run(br browser, r *relay) {
	for d := range q.full {
		if err := br.SendDatagram(q.bufs[d.i][:d.n]); err != nil {
			r.drop(dropSendFailed)
		} else {
			r.mine.down.Add(1)
			r.total.downDatagrams.Add(1)
			r.total.downBytes.Add(uint64(d.n))
		}
		q.free <- d.i
	}
}

// close ends run once the queue is sent.
func (q *sendQueue) close() { close(q.full) }
