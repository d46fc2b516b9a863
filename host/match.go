package host

import (
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/session"
)

// match is one match on its loop: its socket, session server and game.
type match struct {
	index int
	sock  socket
	addr  netip.AddrPort
	srv   *session.Server
	tick  func(s *session.Server, now time.Time)
	hooks *session.Hooks
	// prev is the previous tick's time: no datagram is older.
	prev time.Time
	// phase is the group of its loop's matches it ticks with.
	phase int
	// published is what the metrics read, under its loop's metrics lock;
	// moved counts the datagrams in and out since, and ticks the ticks.
	published    published
	moved, ticks int
}

// newMatch makes match i, the loop's pos-th.
func newMatch(i, pos int, sock socket, m Match, l *loop) *match {
	mt := &match{index: i, sock: sock, addr: sock.addr(), tick: m.Tick, hooks: m.Hooks}
	cfg := m.Session
	mt.srv = session.NewServer(cfg, func(to netip.AddrPort, b []byte) { l.send(mt, to, b) })
	// Matches started together would all send their Snapshots on the same
	// ticks, one loop pass in SnapshotInterval three times the others:
	// ticking an empty server first puts the loop's pos-th match's
	// Snapshots pos ticks later, so that every pass carries the same share. A serverTick is only a
	// counter (§8.1); nothing is sent without a client.
	every := cfg.SnapshotInterval
	if every == 0 {
		every = session.DefaultSnapshotInterval
	}
	for range pos % max(every, 1) {
		mt.srv.Tick(time.Now())
	}
	mt.published.stats = mt.srv.Stats() // before Run: no reader yet
	return mt
}

// receive hands the match's waiting datagrams to its server, at most
// reads batches of them, each at its arrival time: the server's RTT
// samples from acks (§5.1) then do not count the wait for the tick. The
// error is the socket's.
func (m *match) receive(b *mmsg.Batch, reads int, now time.Time) error {
	prev := m.prev
	m.prev = now
	for range reads {
		n, err := m.sock.read(b)
		if err != nil {
			return err
		}
		m.moved += n
		for _, d := range b.Msgs[:n] {
			if m.hooks == nil || m.hooks.OnReceive == nil || m.hooks.OnReceive(d.Addr, d.Buf[:d.N]) {
				m.srv.Receive(d.Buf[:d.N], d.Addr, arrival(d.Time, prev, now))
			}
		}
		if n < len(b.Msgs) {
			return nil
		}
	}
	return nil
}

// arrival is t within [prev, now]: the times a server sees never go back.
func arrival(t, prev, now time.Time) time.Time {
	switch {
	case t.After(now):
		return now
	case t.Before(prev):
		return prev
	}
	return t
}
