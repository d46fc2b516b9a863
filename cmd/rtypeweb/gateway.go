//go:build !js

package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/webtransport-go"
)

// limits are the gateway's bounds (§12).
type limits struct {
	sessions int           // open at once
	rate     int           // datagrams a second from each browser
	idle     time.Duration // silence from a browser that ends its session
}

// gateway accepts WebTransport sessions and relays each to its server.
type gateway struct {
	router
	limits
	total counters
	log   *slog.Logger
	wt    *webtransport.Server

	// listen opens a session's socket toward server; tests replace it.
	listen func(server netip.AddrPort) (upstream, error)

	ctx  context.Context // ends every relay
	stop context.CancelFunc
	quit chan struct{} // closed to ask every page to quit
	once sync.Once     // of shutdown

	mu      sync.Mutex // guards closing, serving, and wg's Add against its Wait
	closing bool
	wg      sync.WaitGroup // the sessions
	// serving is the socket serveWT serves, and served is closed once it
	// returns: webtransport.Server's Close must not run while its Serve
	// starts (a WaitGroup's Wait against its Add), so shutdown closes the
	// socket, waits for Serve to return, then closes the server.
	serving net.PacketConn
	served  chan struct{}
}

func newGateway(r router, l limits, log *slog.Logger) *gateway {
	g := &gateway{router: r, limits: l, log: log, listen: listenUDP, quit: make(chan struct{})}
	g.ctx, g.stop = context.WithCancel(context.Background())
	return g
}

// listenUDP opens a socket of server's family on a new port.
func listenUDP(server netip.AddrPort) (upstream, error) {
	network := "udp4"
	if !server.Addr().Is4() {
		network = "udp6"
	}
	return net.ListenUDP(network, nil)
}

// maxHeaderBytes bounds a request's HTTP/3 HEADERS frame. The library
// allocates what a frame announces before reading it, 1 MB by default:
// 100 streams of a connection, each announcing that much and sending no
// more, would hold 100 MB. A browser's session request takes well under
// 1 KB.
const maxHeaderBytes = 8 << 10

// newWT makes the WebTransport server, with tlsConf's certificate.
func (g *gateway) newWT(tlsConf *tls.Config) {
	mux := http.NewServeMux()
	mux.HandleFunc(sessionPath, g.session)
	g.wt = &webtransport.Server{
		H3: &http3.Server{
			TLSConfig: http3.ConfigureTLSConfig(tlsConf),
			QUICConfig: &quic.Config{
				EnableDatagrams:                  true,
				EnableStreamResetPartialDelivery: true,
				MaxIdleTimeout:                   30 * time.Second,
				KeepAlivePeriod:                  5 * time.Second,
			},
			Handler:        mux,
			MaxHeaderBytes: maxHeaderBytes,
			// A connection without a session for -idle is closed.
			ConnContext: g.watchConn,
		},
		// route checks the origin against the gateway's own list first.
		CheckOrigin: func(*http.Request) bool { return true },
	}
}

// serveWT serves WebTransport on pc until shutdown.
func (g *gateway) serveWT(pc net.PacketConn) error {
	g.mu.Lock()
	if g.closing {
		g.mu.Unlock()
		return nil
	}
	g.serving, g.served = pc, make(chan struct{})
	g.mu.Unlock()
	defer close(g.served)
	err := g.wt.Serve(pc)
	if errors.Is(err, quic.ErrServerClosed) || errors.Is(err, http.ErrServerClosed) || g.ctx.Err() != nil {
		return nil
	}
	return err
}

// session relays one browser's session for as long as it lasts.
func (g *gateway) session(w http.ResponseWriter, r *http.Request) {
	server, err := g.route(r.URL.Path, r.URL.RawQuery, r.Header.Get("Origin"))
	if err != nil {
		g.refuse(w, r, err)
		return
	}
	if !g.track() {
		g.refuse(w, r, errFull) // shutting down
		return
	}
	defer g.wg.Done()
	if !g.reserve() {
		g.refuse(w, r, errFull)
		return
	}
	defer g.total.open.Add(-1)
	sess, err := g.wt.Upgrade(w, r)
	if err != nil {
		g.refuse(w, r, err)
		return
	}
	if cw := connWatchOf(r.Context()); cw != nil {
		cw.opened()
		defer cw.closed()
	}
	conn, err := g.listen(server)
	if err != nil {
		g.log.Warn("socket", "server", server, "err", err)
		sess.CloseWithError(1, "no socket")
		return
	}
	g.total.sessions.Add(1)
	rl := &relay{br: sess, conn: conn, server: server, total: &g.total, limit: newBucket(g.rate), idle: g.idle}
	from := r.RemoteAddr
	g.log.Info("session", "from", from, "server", server)
	go g.control(sess, rl)
	// The relay ends with the session too: the page closed it, or left.
	ctx, cancel := context.WithCancelCause(g.ctx)
	defer cancel(nil)
	stop := context.AfterFunc(sess.Context(), func() { cancel(errLeft) })
	defer stop()
	why := rl.run(ctx)
	if sess.Context().Err() != nil && g.ctx.Err() == nil && !errors.Is(why, errIdle) {
		why = errLeft // however the reads learnt it: the session, the connection
	}
	sess.CloseWithError(0, "")
	g.log.Info("session closed", "from", from, "up", rl.mine.up.Load(), "down", rl.mine.down.Load(),
		"dropped", rl.mine.dropped(), "why", reason(why))
}

var (
	errFull = errors.New("rtypeweb: too many sessions")
	errLeft = errors.New("the browser closed the session")
)

// track counts a session the shutdown waits for, unless it began.
func (g *gateway) track() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closing {
		return false
	}
	g.wg.Add(1)
	return true
}

// reserve takes a session slot, if one is free.
func (g *gateway) reserve() bool {
	if g.total.open.Add(1) > int64(g.sessions) {
		g.total.open.Add(-1)
		return false
	}
	return true
}

// refuse answers a session request the gateway will not relay, logged
// at debug: a flood of them is summed every 10 s (logDrops).
func (g *gateway) refuse(w http.ResponseWriter, r *http.Request, err error) {
	code, k := http.StatusBadRequest, refuseUpgrade
	switch {
	case errors.Is(err, errFull):
		code, k = http.StatusServiceUnavailable, refuseFull
	case errors.Is(err, ErrOrigin):
		code, k = http.StatusForbidden, refuseOrigin
	case errors.Is(err, ErrRoute):
		code, k = http.StatusNotFound, refuseRoute
	}
	g.total.refused[k].Add(1)
	g.log.Debug("session refused", "from", r.RemoteAddr, "origin", r.Header.Get("Origin"), "why", refusalKeys[k])
	w.WriteHeader(code)
}

// reason names why a relay ended, for the log.
func reason(err error) string {
	switch {
	case errors.Is(err, errIdle):
		return "idle"
	case errors.Is(err, errLeft):
		return "browser left"
	case errors.Is(err, context.Canceled):
		return "shutdown"
	case err == nil:
		return "closed"
	}
	var se *webtransport.SessionError
	if errors.As(err, &se) {
		return "browser left"
	}
	// A browser that closes its connection as it closes the session may
	// be heard doing the one before the other.
	var ae *quic.ApplicationError
	if errors.As(err, &ae) && ae.Remote {
		return "browser left"
	}
	return err.Error()
}

// hud is what the gateway tells a page each second about its session,
// and, with quit set, that the page should leave (the gateway stops).
type hud struct {
	Up       uint64 `json:"up"`
	Down     uint64 `json:"down"`
	Dropped  uint64 `json:"dropped"`
	Sessions int64  `json:"sessions"`
	Quit     bool   `json:"quit,omitempty"`
}

// control writes the page's figures on a stream of its own, one JSON line
// a second, and the quit line at shutdown.
func (g *gateway) control(sess *webtransport.Session, rl *relay) {
	ctx := sess.Context()
	str, err := sess.OpenUniStreamSync(ctx)
	if err != nil {
		return
	}
	defer str.Close()
	enc := json.NewEncoder(str)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		quit := false
		select {
		case <-ctx.Done():
			return
		case <-g.quit:
			quit = true
		case <-t.C:
		}
		h := hud{Up: rl.mine.up.Load(), Down: rl.mine.down.Load(), Dropped: rl.mine.dropped(),
			Sessions: g.total.open.Load(), Quit: quit}
		if enc.Encode(h) != nil || quit {
			return
		}
	}
}

// shutdown asks every page to quit, so its client sends Disconnect
// (§7.3), waits for them within grace, then ends every relay.
func (g *gateway) shutdown(grace time.Duration) {
	g.once.Do(func() { g.drain(grace) })
}

func (g *gateway) drain(grace time.Duration) {
	g.mu.Lock()
	g.closing = true // no session starts after the Wait below
	g.mu.Unlock()
	close(g.quit)
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
	}
	g.stop()
	g.mu.Lock()
	pc, served := g.serving, g.served
	g.mu.Unlock()
	if pc != nil {
		pc.Close()
		<-served
	}
	if g.wt != nil {
		g.wt.Close()
	}
	<-done
}
