package main

import (
	"runtime"

	"github.com/rtypeproto/rtype/internal/mmsg"
	"sync"
	"time"
)

// generator is a run's matches and the loops that drive them.
type generator struct {
	cfg     config
	matches []*match
	loops   []*loop
	start   time.Time
	stop    chan struct{}
	wg      sync.WaitGroup
}

// loopCount is how many loops drive the bots: one per GOMAXPROCS, so that
// the bots have every core the process may use, and none idle.
func loopCount(matches int) int { return max(1, min(runtime.GOMAXPROCS(0), matches)) }

// newGenerator opens a socket per bot and shares the matches among n
// loops, each match whole in one; on error it closes what it opened.
func newGenerator(cfg config, n int) (*generator, error) {
	g := &generator{cfg: cfg, stop: make(chan struct{})}
	total := cfg.matches * botsPerMatch
	for range max(n, 1) {
		var shared *mmsg.Conn
		if !cfg.perBot {
			shared = sharedSocket(cfg.server)
		}
		g.loops = append(g.loops, newLoop(shared, total))
	}
	network := "udp4"
	if !cfg.server.Addr().Is4() {
		network = "udp6"
	}
	for i := range cfg.matches {
		l := g.loops[i%len(g.loops)]
		m := &match{index: i, server: cfg.port(i)}
		for k := range m.bots {
			conn, err := l.shared, error(nil)
			if conn == nil {
				conn, err = openSocket(network, i*botsPerMatch+k, total)
			}
			if err != nil {
				for _, b := range m.bots[:k] {
					b.conn.Close() // a shared socket is closed once, the rest say so
				}
				g.close()
				return nil, err
			}
			m.bots[k] = newBot(m, k, conn, l.out, cfg.loss)
			if l.shared != nil {
				m.bots[k].src = botAddr(i*botsPerMatch + k)
			}
		}
		g.matches = append(g.matches, m)
		l.add(m)
	}
	return g, nil
}

// close closes every socket opened, for a run that does not start.
func (g *generator) close() {
	for _, l := range g.loops {
		l.close()
	}
}

// run starts the loops; the measure starts now.
func (g *generator) run() {
	g.start = time.Now()
	for _, l := range g.loops {
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			l.run(g.stop)
		}()
	}
}

// finish stops the loops, each bot sending its Disconnect, and waits.
func (g *generator) finish() {
	close(g.stop)
	g.wg.Wait()
}
