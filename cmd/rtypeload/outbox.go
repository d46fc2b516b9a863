package main

import (
	"net/netip"

	"github.com/rtypeproto/rtype/internal/mmsg"
)

// outbox gathers what one bot's client sends during the bot's turn in its
// loop's write batch, so that one sendmmsg carries it all. A client hands
// over a datagram valid only during the call, so it is copied.
//
// On a shared socket (shared.go) the batch gathers the turns of many bots,
// each datagram from its bot's address, and goes out when full or at the
// frame's end: a turn then counts what it queued.
type outbox struct {
	batch  *mmsg.Batch
	conn   *mmsg.Conn // the socket of the bot whose turn it is
	src    netip.Addr // its address on a shared socket, else zero
	shared bool
	n      int   // datagrams waiting in batch
	turn   int   // datagrams queued this turn
	sent   int   // datagrams the socket took this turn
	err    error // the first socket error of the turn
}

func newOutbox(size int, shared bool) *outbox {
	return &outbox{batch: mmsg.NewBatch(size), shared: shared}
}

// begin starts the turn of the bot whose socket is conn, from src.
func (o *outbox) begin(conn *mmsg.Conn, src netip.Addr) {
	o.conn, o.src, o.turn, o.sent, o.err = conn, src, 0, 0, nil
}

// put queues one datagram to to, flushing first if the batch is full.
func (o *outbox) put(to netip.AddrPort, datagram []byte) {
	if o.n == len(o.batch.Msgs) {
		o.flush()
	}
	m := &o.batch.Msgs[o.n]
	m.N = copy(m.Buf, datagram)
	m.Addr, m.Local = to, o.src
	o.n++
	o.turn++
}

// flush sends what waits. A full send buffer loses the rest, as the
// network may (§5.2, §13).
func (o *outbox) flush() {
	if o.n == 0 {
		return
	}
	k, err := o.batch.Write(o.conn, o.n)
	o.sent += k
	o.n = 0
	if err != nil && o.err == nil {
		o.err = err
	}
}

// end flushes and returns what the turn sent, and its error; on a shared
// socket, what it queued, the batch going out later.
func (o *outbox) end() (int, error) {
	if o.shared {
		return o.turn, nil
	}
	o.flush()
	return o.sent, o.err
}
