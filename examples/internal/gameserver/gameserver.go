// Package gameserver runs the example game of package game on a session
// server: it turns connections, Inputs and departures into calls on the
// world, and the world's spawns, moves and destroys into the entity table
// the session server sends from (§8, §10).
package gameserver

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/session"
)

// Config tunes a Server.
type Config struct {
	// Game configures the world: seed and round length.
	Game game.Config
	// Session configures the protocol side. Its SnapshotInterval and
	// MaxPlayers are set to those of §10 when zero.
	Session session.ServerConfig
	// Hooks, when not nil, see and may drop the match's datagrams.
	Hooks *session.Hooks
	// Interval and ShutdownGrace tune the host Serve runs the match on,
	// as host.Config's do; 0 means the default.
	Interval, ShutdownGrace time.Duration
	// Log receives round changes and, unless Session.Log is set, the
	// session server's joins, leaves and drops; nil discards.
	Log *slog.Logger
	// Pcap, when not nil, records what Serve's socket receives and sends.
	Pcap *pcap.Writer
}

// KeptDepartures is the number of closed connections whose final counters
// a Server keeps for ConnStats, the oldest forgotten first: connections
// that anyone can open and close (§4.2, §7.3, §12) must not grow memory.
const KeptDepartures = 64

// Server is the example's authoritative game server. Step is its whole game
// loop; Serve runs it over UDP.
type Server struct {
	cfg   Config
	log   *slog.Logger
	world *game.World

	// srv is the session server of the Step running: where the world's
	// entities are spawned, under the network ids the world then uses.
	srv *session.Server

	// ended is true once the game ended with the server's shutdown.
	ended bool

	mu    sync.Mutex
	conns map[uint32]Departure
	// order lists the ids in conns as a ring, oldest at next once full.
	order [KeptDepartures]uint32
	next  int
}

// New returns a game server with an empty world in the lobby.
func New(cfg Config) *Server {
	cfg.Session = sessionDefaults(cfg.Session)
	if cfg.Session.Log == nil {
		cfg.Session.Log = cfg.Log
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &Server{cfg: cfg, log: log, conns: make(map[uint32]Departure)}
	cfg.Game.Spawn = g.spawn
	g.world = game.New(cfg.Game)
	return g
}

// sessionDefaults sets the SnapshotInterval and MaxPlayers of §10 where
// cfg leaves them 0.
func sessionDefaults(cfg session.ServerConfig) session.ServerConfig {
	if cfg.SnapshotInterval == 0 {
		cfg.SnapshotInterval = game.SnapshotEvery
	}
	if cfg.MaxPlayers == 0 {
		cfg.MaxPlayers = game.MaxPlayers
	}
	return cfg
}

// SessionConfig returns the configuration to run the session server with.
func (g *Server) SessionConfig() session.ServerConfig { return g.cfg.Session }

// World returns the game world; only Step's goroutine may use it.
func (g *Server) World() *game.World { return g.world }

// Serve runs the game on conn until ctx is done, a host of one match
// (package host). The session server then ends the game, destroying every
// entity with reason 4 (§8.3), waits for the players to acknowledge it,
// and closes conn.
func (g *Server) Serve(ctx context.Context, conn session.PacketConn) error {
	m := g.Match()
	if g.cfg.Pcap != nil {
		// The capture's server side: a socket that does not tell its
		// address records nothing.
		if la, ok := conn.(interface{ LocalAddr() net.Addr }); ok {
			if ua, ok := la.LocalAddr().(*net.UDPAddr); ok {
				m.Hooks = g.cfg.Pcap.Hooks(ua.AddrPort(), m.Hooks)
			}
		}
	}
	h, err := host.Listen(host.Config{Conns: []session.PacketConn{conn}, New: func(int, netip.AddrPort) host.Match { return m },
		Interval: g.cfg.Interval, ShutdownGrace: g.cfg.ShutdownGrace, Log: g.log})
	if err != nil {
		return err
	}
	err = h.Run(ctx)
	g.log.Info("stopped")
	return err
}

// Match is the game as a match of a host: its session configuration, Step
// as its tick, and Config.Hooks.
func (g *Server) Match() host.Match {
	return host.Match{Session: g.SessionConfig(), Tick: g.Step, Hooks: g.cfg.Hooks}
}

// ListenAndServe listens for UDP on addr and runs Serve.
func (g *Server) ListenAndServe(ctx context.Context, addr string) error {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return err
	}
	conn, err := net.ListenUDP("udp", ua)
	if err != nil {
		return err
	}
	return g.Serve(ctx, conn)
}

// Step is one game tick, run before s.Tick sends what changed: the session
// events go to the world, the world advances one tick, and its destroys go
// to the session's entity table, its spawns having gone there as they
// happened. The world's positions go there once per Snapshot, the only
// message that reads them, but on a tick where a player joined or queried
// an entity, whose CreateEntity messages carry them too (§7.4, §8.1, §8.2).
func (g *Server) Step(s *session.Server, now time.Time) {
	g.srv = s
	push := snapshotDue(s, g.cfg.Session.SnapshotInterval)
	for ev := range s.Events() {
		push = g.handle(s, ev) || push
	}
	g.applyAll(s)
	switch {
	case s.ShuttingDown() && !g.ended:
		// The session server destroyed every entity with reason 4
		// (§8.3); the world follows, and plays no more.
		g.ended = true
		g.log.Info("game ended", "reason", "server shutdown")
		g.world.Shutdown()
	case !g.ended:
		g.world.Tick()
	}
	g.applyAll(s)
	if push {
		for _, e := range g.world.Entities() {
			_ = s.Move(e.ID, e.X, e.Y, e.Rotation)
		}
	}
}

// snapshotDue reports whether the session's next Tick sends a Snapshot,
// with every the session's SnapshotInterval: the tick a game's moves
// must be in the session's table by, when nothing else reads them. A
// server without Snapshots has moves read by its CreateEntity messages
// only, at any tick.
func snapshotDue(s *session.Server, every int) bool {
	return every <= 0 || (s.ServerTick()+1)%uint32(every) == 0
}

// handle passes one session event to the world and reports whether it
// asks for positions out of a Snapshot's tick.
func (g *Server) handle(s *session.Server, ev session.ServerEvent) (positions bool) {
	switch ev.Kind {
	case session.EventPlayerJoined:
		if _, ok := g.world.Join(game.PlayerID(ev.Conn)); !ok {
			g.log.Warn("join without a free slot", "conn", ev.Conn)
		}
		return true
	case session.EventPlayerLeft:
		g.world.Leave(game.PlayerID(ev.Conn))
		final, _ := s.ConnStats(ev.Conn)
		g.keep(ev.Conn, Departure{Stats: final, Close: ev.Close, Disconnect: ev.Disconnect})
	case session.EventInput:
		g.world.Input(game.PlayerID(ev.Conn), ev.Input.Actions)
	case session.EventQueryEntity:
		g.log.Debug("entity queried", "conn", ev.Conn, "id", ev.Entity.ID)
		return true
	}
	return false
}

// spawn puts a new entity of the world in the session's table and returns
// the network id the world knows it by (game.Config.Spawn).
func (g *Server) spawn(e game.Entity) uint32 {
	s := g.srv
	if e.Owner != 0 && e.Archetype != rtype.ArchetypeBullet {
		// A ship: the session destroys it with reason 3 when its
		// player's connection closes, whatever the cause (§7.3).
		if id, err := s.SpawnFor(uint32(e.Owner), e.Archetype, e.X, e.Y, e.Rotation); err == nil {
			return id
		}
		// Its player left in the same tick: the world's Leave, next,
		// destroys it with reason 3.
	}
	return s.Spawn(e.Archetype, e.X, e.Y, e.Rotation)
}

func (g *Server) applyAll(s *session.Server) {
	for _, ev := range g.world.Events() {
		g.apply(s, ev)
	}
}

// apply mirrors one world change into the session server; spawns are
// there already.
func (g *Server) apply(s *session.Server, ev game.Event) {
	switch ev.Kind {
	case game.EventDestroy:
		id := ev.Entity.ID
		if err := s.Destroy(id, ev.Reason); err != nil && !errors.Is(err, session.ErrNoEntity) {
			g.log.Error("destroy", "id", id, "err", err)
		}
	case game.EventRoundStart:
		g.log.Info("round started", "players", g.world.Players())
	case game.EventLobby:
		g.log.Info("back to lobby", "players", g.world.Players())
	}
}

// Departure is how one connection ended, as the server saw it.
type Departure struct {
	// Stats are the connection's final counters (§5.2, §13.4).
	Stats session.ConnStats
	// Close is why the server closed it: the client's Disconnect (§7.3),
	// its silence (§13.3), the server's stop …
	Close session.CloseReason
	// Disconnect is the reason the client gave, when Close is
	// CloseDisconnect (§7.3).
	Disconnect rtype.DisconnectReason
}

// keep records how connection id ended, forgetting the oldest departure
// once KeptDepartures are kept.
func (g *Server) keep(id uint32, d Departure) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.conns[id]; !ok {
		if len(g.conns) == KeptDepartures {
			delete(g.conns, g.order[g.next])
		}
		g.order[g.next] = id
		g.next = (g.next + 1) % KeptDepartures
	}
	g.conns[id] = d
}

// ConnStats returns the final counters of connection id once it closed
// (§5.2, §13.4), for the last KeptDepartures connections closed. It is safe to call from any goroutine; after Serve
// returned, every connection has closed.
func (g *Server) ConnStats(id uint32) (session.ConnStats, bool) {
	d, ok := g.Departure(id)
	return d.Stats, ok
}

// Departure returns how connection id ended, for the last KeptDepartures
// connections closed. It is safe to call from any goroutine.
func (g *Server) Departure(id uint32) (Departure, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	d, ok := g.conns[id]
	return d, ok
}
