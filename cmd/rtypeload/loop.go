package main

import (
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype/internal/mmsg"
)

// frameInterval is the bots' frame: one Input per frame at 60 frames/s (§7.1, §10).
const frameInterval = time.Second / 60

// Batch sizes: a bot gets under one datagram per frame in play, a burst
// of CreateEntity on joining (§10); it sends one or two per frame.
const (
	readBatch = 32
	// maxReads bounds the datagrams one bot reads per frame to
	// maxReads×readBatch; more wait for the next frame, their arrival
	// times still exact.
	maxReads   = 8
	writeBatch = 8
	// sharedBatch is the batch of a shared socket, many bots' datagrams.
	sharedBatch = 64
)

// loop drives a share of the bots from one goroutine: once per frame, for
// each bot, it reads the datagrams queued on the bot's socket without
// waiting (those readiness shows queued), gives each to the client with
// its kernel arrival time, so that a loop polling once per frame still
// measures exactly, then runs the client's frame and sends what it sent
// in one batch. No goroutine and no blocking read per bot: a core drives
// as many bots as it has time for.
type loop struct {
	matches []*match
	bots    []*bot
	ready   *readiness // nil: read every bot every frame
	queued  []bool     // per bot: datagrams queued, this frame
	in      *mmsg.Batch
	out     *outbox
	// shared, if not nil, is the socket of all the loop's bots, byIndex
	// its bots by their index in the run (shared.go).
	shared  *mmsg.Conn
	byIndex []*bot
	busy    time.Duration // spent in frames
	frames  int           // frames run: 60 a second while the loop keeps up
	stopped time.Time     // when the loop stopped playing
	live    liveCounts
}

// liveCounts are what the progress line reads while the loop runs.
type liveCounts struct {
	playing   atomic.Int64
	snapshots atomic.Uint64
	worst     atomic.Int64 // the longest Snapshot interval, in ns
}

// newLoop returns a loop for bots on a socket each, or all on shared, of
// a run of total bots.
func newLoop(shared *mmsg.Conn, total int) *loop {
	if shared != nil {
		return &loop{shared: shared, byIndex: make([]*bot, total),
			in: mmsg.NewBatch(sharedBatch), out: newOutbox(sharedBatch, true)}
	}
	return &loop{ready: newReadiness(), in: mmsg.NewBatch(readBatch), out: newOutbox(writeBatch, false)}
}

// add gives the loop match m, whose bots use the loop's outbox.
func (l *loop) add(m *match) {
	l.matches = append(l.matches, m)
	for k, b := range m.bots {
		if l.shared != nil {
			l.byIndex[m.index*botsPerMatch+k] = b
		}
		if l.ready != nil && l.ready.add(b.conn, len(l.bots)) != nil {
			l.ready.close()
			l.ready = nil // read every bot, as without epoll
		}
		l.bots = append(l.bots, b)
		l.queued = append(l.queued, false)
	}
}

// run plays a frame per tick until stop is closed, then finishes.
func (l *loop) run(stop <-chan struct{}) {
	t := time.NewTicker(frameInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			l.stopped = time.Now()
			l.finish()
			return
		case <-t.C:
			begin := time.Now()
			l.frame()
			l.busy += time.Since(begin)
			l.frames++
		}
	}
}

// frame is one frame of every bot of the loop.
func (l *loop) frame() {
	switch {
	case l.shared != nil:
		l.drainShared()
		clear(l.queued)
	case l.ready != nil:
		clear(l.queued)
		l.ready.poll(l.queued)
	default:
		all(l.queued)
	}
	for i, b := range l.bots {
		l.turn(b, l.queued[i])
	}
	l.out.flush()
	l.publish()
}

// turn is one frame of bot b: read if queued, play, send.
func (l *loop) turn(b *bot, queued bool) {
	if !b.active() {
		return
	}
	l.out.begin(b.conn, b.src)
	if queued {
		l.drain(b)
	}
	b.play(time.Now())
	b.wrote(l.out.end())
}

// all marks every bot's socket as having datagrams queued.
func all(queued []bool) {
	for i := range queued {
		queued[i] = true
	}
}

// drain gives b's client the datagrams queued on its socket.
func (l *loop) drain(b *bot) {
	for range maxReads {
		n, err := l.in.Read(b.conn)
		if err != nil {
			b.fail(err)
			return
		}
		for i := range n {
			m := &l.in.Msgs[i]
			b.receive(m.Buf[:m.N], m.Addr, m.Time)
		}
		if n < len(l.in.Msgs) {
			return
		}
	}
}

// publish updates the counts the progress line reads; the worst interval
// includes a stall under way.
func (l *loop) publish() {
	var playing int64
	var snapshots uint64
	var worst time.Duration
	now := time.Now().Round(0)
	for _, b := range l.bots {
		if b.snapshots > 0 && b.active() {
			playing++
			if open := now.Sub(b.lastSnap); open >= stallAt {
				worst = max(worst, open)
			}
		}
		snapshots += b.snapshots
	}
	for _, m := range l.matches {
		worst = max(worst, m.snap.max)
	}
	l.live.playing.Store(playing)
	l.live.snapshots.Store(snapshots)
	l.live.worst.Store(int64(worst))
}

// finish ends the run of every bot: what is queued is read, the measure
// stops, then the bot sends its Disconnect (§7.3) and its socket closes.
func (l *loop) finish() {
	if l.shared != nil {
		l.drainShared()
	}
	for _, b := range l.bots {
		l.out.begin(b.conn, b.src)
		if b.active() && l.shared == nil {
			l.drain(b)
		}
		b.freeze(b.clock(time.Now()))
		b.closing = true
		if b.err == nil {
			b.client.Close(b.last)
		}
		l.out.end() // a Disconnect lost leaves the server to time out (§13.3)
	}
	l.out.flush()
	l.close()
}

// close closes the bots' sockets and the readiness, once.
func (l *loop) close() {
	for _, b := range l.bots {
		b.conn.Close()
	}
	if l.ready != nil {
		l.ready.close()
		l.ready = nil
	}
}

// drainShared gives each bot of the loop the datagrams its address was
// sent, read from the shared socket in batches: as many as a frame brings
// every bot twice over, the rest left for the next frame.
func (l *loop) drainShared() {
	for range maxReads + 2*len(l.bots)/len(l.in.Msgs) {
		n, err := l.in.Read(l.shared)
		if err != nil {
			for _, b := range l.bots {
				b.fail(err)
			}
			return
		}
		for i := range n {
			m := &l.in.Msgs[i]
			if g := botIndex(m.Local, len(l.byIndex)); g >= 0 {
				if b := l.byIndex[g]; b != nil && b.active() {
					b.receive(m.Buf[:m.N], m.Addr, m.Time)
				}
			}
		}
		if n < len(l.in.Msgs) {
			return
		}
	}
}
