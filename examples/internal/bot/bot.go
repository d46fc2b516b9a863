// Package bot is a scripted client of the example game: it connects with
// the session package, sends one Input per frame from a fixed pattern (§7.1),
// lets the client ping every second (§7.2), and reports what it saw: how far
// it got (welcomed, given the world, §10), the session client's own counters
// (Snapshots, server packets lost, §5.2, §8.1), one round trip per Pong
// (§7.2), the entities it learnt of (§8.2) or let expire (§13.4), and
// what a smooth view of its world (session.View) drew at each frame.
package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/session"
)

// Config tunes one bot.
type Config struct {
	// Server is the server's address.
	Server netip.AddrPort
	// Name identifies the bot in reports.
	Name string
	// Index shifts the bot's script so that bots do not move in step.
	Index int
	// Duration is how long the bot plays once the server sends it the
	// world (§10), and how long after its Welcome it waits for that world
	// before giving up; 0 plays, or waits, until the context is done.
	Duration time.Duration
	// Loss drops that fraction of the datagrams in each direction, to see
	// the protocol cope with a lossy network (§5.2, §13.4).
	Loss float64
	// Seed drives the simulated loss.
	Seed uint64
	// Group, when not nil, ties the bot to the others of the group: a bot
	// not given the world yet gives up once one of them is done playing.
	Group *Group
	// Session configures the client, completed by [SessionConfig]; the
	// binding's hooks are the bot's own. Without a View, the bot gives it
	// one of the defaults, which Result.Smooth reports on.
	Session session.ClientConfig
	// Conn, when not nil, is the bot's socket, such as one of an
	// rtypetest.Network; nil opens a UDP socket of the system. Run closes
	// it.
	Conn session.PacketConn
	// Pcap, when not nil, records what the bot's session sends and
	// receives, past the simulated Loss; bots may share one.
	Pcap *pcap.Writer
}

// Bot is one scripted player. Run plays; Live may be called meanwhile from
// another goroutine.
type Bot struct {
	cfg   Config
	watch func(View)

	mu   sync.Mutex
	live Result
}

// New returns a bot that has not connected yet.
func New(cfg Config) *Bot {
	if cfg.Name == "" {
		cfg.Name = "bot"
	}
	return &Bot{cfg: cfg, live: Result{Name: cfg.Name, Server: cfg.Server, Resends: -1}}
}

// Live returns the bot's counters as of its last frames, without the RTT
// samples.
func (b *Bot) Live() Result {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.live
}

func (b *Bot) publish(r *Result) {
	b.mu.Lock()
	b.live = *r
	b.live.RTT = nil
	b.mu.Unlock()
}

// run is the state of one Run. Everything in it is used from the
// goroutine of session.RunClientConn only: the frame function and the
// hooks.
type run struct {
	cfg      Config
	rng      *rand.Rand
	res      Result
	hellos   int
	frame    uint32
	deadline time.Time
	seen     map[uint32]struct{}
	tick     uint32 // of the latest Snapshot
}

// Run connects, plays for Duration or until ctx is done, sends Disconnect
// (§7.3) and returns what the bot saw. A bot that could not connect or
// whose session ended without its Disconnect has Err set.
func (b *Bot) Run(ctx context.Context) Result {
	r := &run{
		cfg:  b.cfg,
		rng:  rand.New(rand.NewPCG(b.cfg.Seed, uint64(b.cfg.Index))),
		res:  Result{Name: b.cfg.Name, Server: b.cfg.Server, Resends: -1},
		seen: make(map[uint32]struct{}),
	}
	conn, err := b.socket()
	if err != nil {
		r.res.Err = err
		return r.res
	}
	cfg := SessionConfig(b.cfg.Session)
	if cfg.View == nil {
		cfg.View = session.NewView(session.ViewConfig{})
	}
	opts := session.RunOptions{Hooks: &session.Hooks{OnReceive: r.receiving, OnSend: r.sending}}
	if b.cfg.Pcap != nil {
		opts.Hooks = b.cfg.Pcap.Hooks(localAddr(conn), opts.Hooks)
	}
	var last *session.Client
	err = session.RunClientConn(ctx, conn, b.cfg.Server, cfg, opts, func(c *session.Client, now time.Time) bool {
		last = c
		more := r.play(c, now)
		r.res.Smooth.frame(cfg.View, now)
		if b.watch != nil {
			b.watch(r.view(c))
		}
		if r.frame%6 == 0 || !more {
			b.publish(&r.res)
		}
		return more
	})
	if r.res.Playing {
		b.cfg.Group.leave() // also when the session was lost
	}
	switch {
	case err != nil:
		r.res.Err = err
		r.res.Lost = r.res.Connected
	case !r.res.Connected:
		r.res.Err = errors.New("not connected when the bot stopped")
	}
	if last != nil {
		r.update(last)
	}
	r.res.HelloResends = max(0, r.hellos-1)
	b.publish(&r.res)
	return r.res
}

// socket returns the Config's Conn, or a new UDP socket of the system of
// the server address's family.
func (b *Bot) socket() (session.PacketConn, error) {
	if b.cfg.Conn != nil {
		return b.cfg.Conn, nil
	}
	network := "udp4"
	if !b.cfg.Server.Addr().Unmap().Is4() {
		network = "udp6"
	}
	return net.ListenUDP(network, nil)
}

// localAddr is conn's own address, when it tells it.
func localAddr(conn session.PacketConn) netip.AddrPort {
	if c, ok := conn.(interface{ LocalAddr() net.Addr }); ok {
		if ua, ok := c.LocalAddr().(*net.UDPAddr); ok {
			return ua.AddrPort()
		}
		a, _ := netip.ParseAddrPort(c.LocalAddr().String())
		return a
	}
	return netip.AddrPort{}
}

// play is one frame: read the events, send the frame's Input (§7.1), and
// say whether to go on.
func (r *run) play(c *session.Client, now time.Time) bool {
	if !r.res.Playing && r.cfg.Group.over() {
		// Before the events: the world a freed slot brought stays unread.
		r.update(c)
		return false
	}
	for ev := range c.Events() {
		r.event(&ev, now)
	}
	r.res.State = c.State()
	if !r.deadline.IsZero() && !now.Before(r.deadline) {
		if r.res.Playing {
			r.cfg.Group.leave() // before the Disconnect frees the slot
		}
		r.update(c)
		return false // RunClientConn sends Disconnect (§7.3)
	}
	if c.State().Connected() {
		if err := c.SendInput(Pattern(r.cfg.Index, r.frame), now); err == nil {
			r.frame++
			r.res.Inputs++
		}
	}
	r.update(c)
	return true
}

// event records one client event.
func (r *run) event(ev *session.ClientEvent, now time.Time) {
	switch ev.Kind {
	case session.EventConnected:
		r.res.Connected = true
		r.res.ConnectionID = ev.Conn
		r.startClock(now) // the wait for the world
	case session.EventPlaying:
		r.res.Playing = true
		r.startClock(now) // the play itself
	case session.EventRejected:
		r.res.Rejected = true
	case session.EventEntityCreated:
		r.res.Created++
		r.seen[ev.Entity.ID] = struct{}{}
	case session.EventEntityDestroyed:
		r.res.Destroyed++
	case session.EventEntityExpired:
		r.res.Expired++
	case session.EventSnapshot:
		r.tick = ev.Tick
	case session.EventPong:
		r.res.LastRTT = ev.RTT
		r.res.RTT = append(r.res.RTT, ev.RTT)
	}
}

// startClock gives the bot Duration from now before it stops.
func (r *run) startClock(now time.Time) {
	if r.cfg.Duration > 0 {
		r.deadline = now.Add(r.cfg.Duration)
	}
}

func (r *run) update(c *session.Client) {
	r.res.Entities = c.NumEntities()
	r.res.EntitiesSeen = len(r.seen)
	r.res.SmoothedRTT = c.Stats().SRTT
	r.res.Client = c.Stats()
}

func (r *run) drop() bool {
	return r.cfg.Loss > 0 && r.rng.Float64() < r.cfg.Loss
}

// receiving is the client's OnReceive hook: the simulated loss.
func (r *run) receiving(_ netip.AddrPort, _ []byte) bool { return !r.drop() }

// sending is the client's OnSend hook: it counts the Hellos (§4.2), then
// applies the simulated loss.
func (r *run) sending(_ netip.AddrPort, b []byte) bool {
	if t, _, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeHello {
		r.hellos++
	}
	return !r.drop()
}
