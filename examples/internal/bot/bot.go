// Package bot is a scripted client of the example game: it connects with
// the session package, sends one Input per frame from a fixed pattern (§7.1),
// lets the client ping every second (§7.2), and counts what it receives.
//
// The bot runs its own UDP loop around the sans-I/O session.Client so that
// it can watch every datagram go by: that is where it measures each round
// trip (one per Pong, not the smoothed value), counts Snapshot messages and
// sees which server sequence numbers never arrived (§5.2).
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
	// Duration is how long the bot plays once connected; 0 plays until
	// the context is done.
	Duration time.Duration
	// Loss drops that fraction of the datagrams in each direction, to see
	// the protocol cope with a lossy network (§5.2, §13.4).
	Loss float64
	// Seed drives the simulated loss.
	Seed uint64
	// Session configures the client.
	Session session.ClientConfig
}

// Bot is one scripted player. Run plays; Live may be called meanwhile from
// another goroutine.
type Bot struct {
	cfg Config

	mu   sync.Mutex
	live Result
}

// New returns a bot that has not connected yet.
func New(cfg Config) *Bot {
	if cfg.Name == "" {
		cfg.Name = "bot"
	}
	return &Bot{cfg: cfg, live: Result{Name: cfg.Name, Resends: -1}}
}

// Live returns the bot's counters as of its last frame, without the RTT
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

type inbound struct {
	b    []byte
	from netip.AddrPort
	at   time.Time
}

// run is the state of one Run.
type run struct {
	cfg    Config
	conn   *net.UDPConn
	client *session.Client
	rng    *rand.Rand
	res    Result

	hellos  int
	pings   map[uint32]time.Time
	seen    map[uint32]struct{}
	window  rtype.SeqWindow
	highest uint32
}

// Run connects, plays for Duration or until ctx is done, sends Disconnect
// (§7.3) and returns what the bot saw. A bot that could not connect or
// whose session ended without its Disconnect has Err set.
func (b *Bot) Run(ctx context.Context) Result {
	r := &run{
		cfg:   b.cfg,
		rng:   rand.New(rand.NewPCG(b.cfg.Seed, uint64(b.cfg.Index))),
		res:   Result{Name: b.cfg.Name, Resends: -1},
		pings: make(map[uint32]time.Time),
		seen:  make(map[uint32]struct{}),
	}
	network := "udp4"
	if !b.cfg.Server.Addr().Unmap().Is4() {
		network = "udp6"
	}
	conn, err := net.ListenUDP(network, nil)
	if err != nil {
		r.res.Err = err
		return r.res
	}
	r.conn = conn
	r.client = session.NewClient(b.cfg.Server, b.cfg.Session, r.send)

	in := make(chan inbound, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			buf := make([]byte, rtype.MaxDatagramSize+1)
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue
			}
			select {
			case in <- inbound{buf[:n], from, time.Now()}:
			default: // a stalled bot loses datagrams, as a slow host would
			}
		}
	}()
	defer func() {
		conn.Close()
		<-done
	}()

	frameEvery := b.cfg.Session.FrameInterval
	if frameEvery <= 0 {
		frameEvery = session.DefaultFrameInterval
	}
	ticker := time.NewTicker(frameEvery)
	defer ticker.Stop()
	var deadline <-chan time.Time
	var frame uint32
	r.client.Update(time.Now())
	for {
		select {
		case <-ctx.Done():
			r.quit(time.Now())
			b.publish(&r.res)
			return r.res
		case <-deadline:
			r.quit(time.Now())
			b.publish(&r.res)
			return r.res
		case d := <-in:
			if r.drop() {
				continue
			}
			r.tapIn(d)
			r.client.Receive(d.b, d.from, d.at)
		case now := <-ticker.C:
			r.client.Update(now)
			wasConnected := r.res.Connected
			r.events()
			if r.res.Connected && !wasConnected && b.cfg.Duration > 0 {
				deadline = time.After(b.cfg.Duration)
			}
			if r.client.State() == session.Closed {
				r.res.Lost = r.res.Connected
				if r.res.Err == nil {
					r.res.Err = errors.New(r.client.CloseReason().String())
				}
				r.finish()
				b.publish(&r.res)
				return r.res
			}
			if r.client.State() == session.Connected {
				if err := r.client.SendInput(Pattern(b.cfg.Index, frame), now); err == nil {
					frame++
				}
			}
			r.res.Entities = r.client.NumEntities()
			r.res.SmoothedRTT = r.client.RTT()
			if frame%6 == 0 {
				b.publish(&r.res)
			}
		}
	}
}

// quit ends a session the bot chose to end: Disconnect with reason 1
// (§7.3), or a failure to connect in time.
func (r *run) quit(now time.Time) {
	r.events()
	if r.client.State() == session.Connected {
		r.client.Close(now)
	} else if !r.res.Connected && r.res.Err == nil {
		r.res.Err = errors.New("not connected when the bot stopped")
	}
	r.finish()
}

func (r *run) finish() {
	r.res.Entities = r.client.NumEntities()
	r.res.EntitiesSeen = len(r.seen)
	r.res.SmoothedRTT = r.client.RTT()
	r.res.HelloResends = max(0, r.hellos-1)
	st := r.client.Stats()
	r.res.Drops = st.Drops.Total()
}

func (r *run) events() {
	for ev := range r.client.Events() {
		switch ev.Kind {
		case session.EventConnected:
			r.res.Connected = true
			r.res.ConnectionID = r.client.ConnectionID()
		case session.EventRejected:
			r.res.Err = session.ErrRejected
		case session.EventTimedOut:
			r.res.Err = session.ErrTimedOut
		case session.EventEntityCreated:
			r.res.Created++
			r.seen[ev.Entity.ID] = struct{}{}
		case session.EventEntityDestroyed:
			r.res.Destroyed++
		}
	}
	r.res.EntitiesSeen = len(r.seen)
}

func (r *run) drop() bool {
	return r.cfg.Loss > 0 && r.rng.Float64() < r.cfg.Loss
}

// send is the client's SendFunc: it counts what goes out, then writes it,
// unless the simulated loss takes it.
func (r *run) send(to netip.AddrPort, b []byte) {
	r.tapOut(b)
	if r.drop() {
		return
	}
	_, _ = r.conn.WriteToUDPAddrPort(b, to)
}

func (r *run) tapOut(b []byte) {
	if r.client.State() != session.Connected {
		if t, _, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeHello {
			r.hellos++
		}
		return
	}
	p, err := rtype.ParsePacket(b)
	if err != nil {
		return
	}
	now := time.Now()
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypeInput:
			r.res.Inputs++
		case rtype.TypePing:
			var ping rtype.Ping
			if ping.UnmarshalBinary(m.Payload) == nil {
				r.res.Pings++
				if len(r.pings) < 64 {
					r.pings[ping.Timestamp] = now
				}
			}
		case rtype.TypeQueryEntity:
			r.res.Queries++
		}
	}
}

// tapIn counts a server packet the client is about to receive: its
// sequence, for loss (§5.2), its Snapshots (§8.1) and its Pongs (§8.4).
func (r *run) tapIn(d inbound) {
	if d.from != r.cfg.Server || r.client.State() != session.Connected {
		return
	}
	p, err := rtype.ParsePacket(d.b)
	if err != nil || p.Header.ConnectionID != r.client.ConnectionID() {
		return
	}
	seq := p.Header.Sequence
	switch r.window.Receive(seq) {
	case rtype.SeqNew:
		if r.highest != 0 && seq > r.highest+1 {
			r.res.PacketsMissed += int(seq - r.highest - 1)
		}
		r.highest = max(r.highest, seq)
		r.res.PacketsReceived++
	case rtype.SeqOutOfOrder:
		r.res.PacketsMissed--
		r.res.PacketsReceived++
	default:
		return
	}
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypeSnapshot:
			r.res.Snapshots++
		case rtype.TypePong:
			var pong rtype.Pong
			if pong.UnmarshalBinary(m.Payload) != nil {
				continue
			}
			if sent, ok := r.pings[pong.Timestamp]; ok {
				delete(r.pings, pong.Timestamp)
				r.res.LastRTT = d.at.Sub(sent)
				r.res.RTT = append(r.res.RTT, r.res.LastRTT)
				r.res.Pongs++
			}
		}
	}
}
