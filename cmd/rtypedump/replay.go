package main

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"time"

	"github.com/rtypeproto/rtype/internal/playfield"
	"github.com/rtypeproto/rtype/internal/wiredump"
	"github.com/rtypeproto/rtype/session"
)

// maxReplayBytes bounds the datagrams -watch keeps of a capture: the
// server's to its clients, about 15 MB an hour per player.
const maxReplayBytes = 256 << 20

// errReplayTooLarge: a capture whose datagrams to the clients pass
// maxReplayBytes; -watch plays what it kept.
var errReplayTooLarge = errors.New("the capture's datagrams to the clients pass 256 MiB: the replay stops there")

// replayDatagram is one datagram from the server to a client, at the time
// the capture saw it.
type replayDatagram struct {
	at time.Time
	b  []byte
}

// replayClient is one client address of a capture and what the server
// sent it.
type replayClient struct {
	addr, server netip.AddrPort
	dgrams       []replayDatagram
}

// replayCapture is a capture read for -watch.
type replayCapture struct {
	clients    []*replayClient
	start, end time.Time
}

// loadReplay reads the capture in r, the server on port, keeping what the
// server sent each client. A capture cut short is kept as far as it goes,
// with the error.
func loadReplay(r io.Reader, port uint16) (*replayCapture, error) {
	c, err := openCapture(r)
	if err != nil {
		return nil, err
	}
	rc := &replayCapture{}
	by := map[netip.AddrPort]*replayClient{}
	s := wiredump.NewSides(port)
	kept := 0
	for {
		f, err := c.next()
		if err == io.EOF {
			return rc, nil
		}
		if err != nil {
			return rc, err
		}
		u, ok := udpOf(f)
		if !ok || u.problem != nil {
			continue
		}
		_, client, toServer, ok := s.Classify(u.src, u.dst)
		if !ok {
			continue
		}
		at := f.info.Timestamp
		if rc.start.IsZero() {
			rc.start = at
		}
		rc.end = at
		cl := by[client]
		if cl == nil {
			if len(rc.clients) >= maxReportClients {
				continue
			}
			server := u.src
			if toServer {
				server = u.dst
			}
			cl = &replayClient{addr: client, server: server}
			by[client] = cl
			rc.clients = append(rc.clients, cl)
		}
		if toServer {
			continue
		}
		if kept += len(u.payload); kept > maxReplayBytes {
			return rc, errReplayTooLarge
		}
		cl.dgrams = append(cl.dgrams, replayDatagram{at: at, b: slices.Clone(u.payload)})
	}
}

// frameStep is the replay's clock step: one frame at 60 Hz (§10), at
// which the client's timers run.
const frameStep = time.Second / 60

// Speeds of the replay, + and - move along them.
var replaySpeeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16}

// replayer plays one client of a capture into a real session.Client, so
// that what it shows is what a client would have held, ghosts included.
type replayer struct {
	rc     *replayCapture
	ci     int           // the client shown
	pos    time.Duration // since the capture's start
	speed  int           // index in replaySpeeds
	paused bool

	client *session.Client
	fed    time.Duration // the client has run up to this time
	next   int           // next datagram to feed
	tick   uint32        // the latest Snapshot's serverTick
}

func newReplayer(rc *replayCapture, ci int) *replayer {
	p := &replayer{rc: rc, ci: ci, speed: 2}
	p.restart()
	return p
}

// restart gives the client shown a fresh session.Client at the start.
func (p *replayer) restart() {
	cl := p.rc.clients[p.ci]
	// The replay's Hello is no real one: it never gives up waiting.
	p.client = session.NewClient(cl.server, session.ClientConfig{GiveUp: session.Off}, func(netip.AddrPort, []byte) {})
	p.fed, p.next, p.tick = -frameStep, 0, 0
	p.runTo(0)
}

// span is the capture's length.
func (p *replayer) span() time.Duration { return p.rc.end.Sub(p.rc.start) }

// seek moves to to, within the capture: back, the client is played again
// from the start.
func (p *replayer) seek(to time.Duration) {
	to = min(max(to, 0), p.span())
	if to < p.fed {
		p.restart()
	}
	p.pos = to
	p.runTo(to)
}

// play moves on by wall time d at the replay's speed, unless paused.
func (p *replayer) play(d time.Duration) {
	if !p.paused {
		p.seek(p.pos + time.Duration(float64(d)*replaySpeeds[p.speed]))
	}
}

// runTo feeds the client every datagram up to to, frame by frame, running
// its timers at each frame as a game's loop would.
func (p *replayer) runTo(to time.Duration) {
	dg := p.rc.clients[p.ci].dgrams
	for p.fed < to {
		p.fed = min(p.fed+frameStep, to)
		now := p.rc.start.Add(p.fed)
		for p.next < len(dg) && !dg[p.next].at.After(now) {
			d := dg[p.next]
			p.client.Receive(d.b, p.rc.clients[p.ci].server, d.at)
			p.next++
		}
		p.client.Update(now)
		for ev := range p.client.Events() {
			if ev.Kind == session.EventSnapshot {
				p.tick = ev.Tick
			}
		}
	}
}

// key applies one key of the replay's: space, ← and →, + and -, n and p;
// it reports false for q.
func (p *replayer) key(k string) bool {
	switch k {
	case " ":
		p.paused = !p.paused
	case "left":
		p.seek(p.pos - 5*time.Second)
	case "right":
		p.seek(p.pos + 5*time.Second)
	case "+":
		p.speed = min(p.speed+1, len(replaySpeeds)-1)
	case "-":
		p.speed = max(p.speed-1, 0)
	case "n", "p":
		step := 1
		if k == "p" {
			step = len(p.rc.clients) - 1
		}
		p.ci = (p.ci + step) % len(p.rc.clients)
		pos := p.pos
		p.restart()
		p.seek(pos)
	case "q":
		return false
	}
	return true
}

// hud is the bottom line: the capture time, the tick, the client and the
// speed, then the keys.
func (p *replayer) hud() playfield.HUD {
	h := playfield.HUD{Tick: p.tick, Loss: p.client.Stats().Loss()}
	h.Count(p.client.Entities())
	state := ""
	switch {
	case p.paused:
		state = "  paused"
	case p.pos >= p.span():
		state = "  end"
	}
	h.Status = fmt.Sprintf("%.1f/%.1fs  %gx  %v %d/%d%s  space ←→ +- n p q",
		p.pos.Seconds(), p.span().Seconds(), replaySpeeds[p.speed], p.rc.clients[p.ci].addr, p.ci+1, len(p.rc.clients), state)
	return h
}

// frame draws the replay into fr, cols × rows cells, the HUD last.
func (p *replayer) frame(fr playfield.Frame, cols, rows int) playfield.Frame {
	return playfield.Render(fr, playfield.Example, p.client.Entities(), p.hud(), cols, rows)
}
