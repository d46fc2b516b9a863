package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/netem"
)

// maxDatagram is the size of every receive buffer, which any UDP payload
// fits (65,507 bytes over IPv4, 65,527 over IPv6): the proxy forwards any
// datagram, valid or not.
const maxDatagram = 65535

// socketBuffer is the kernel buffer asked for each socket, for bursts.
const socketBuffer = 1 << 20

// proxy forwards datagrams between clients and one server through the
// impairments of each direction. The listening loop owns the client table;
// each client's reader owns its down link; the scheduler sends what waits.
type proxy struct {
	cfg     config
	ln      *net.UDPConn
	local   netip.AddrPort // the listening address
	server  netip.AddrPort
	start   time.Time
	clients *clientTable
	sched   *scheduler
	log     *logger     // nil with -log none
	pcap    *pcapWriter // nil without -pcap
	readers sync.WaitGroup
	every   time.Duration // how often idle clients are looked for
	unsent  int           // datagrams still held at the end
	scratch []*client     // housekeep's list of idle clients
	// joined and forgot, if set, are told each new client and each client
	// forgotten or evicted, once its totals are summed; for tests.
	joined, forgot func(*client)
}

// newProxy resolves the addresses, opens the listening socket and the
// pcap file; logOut gets the log.
func newProxy(cfg config, logOut io.Writer) (*proxy, error) {
	srv, err := net.ResolveUDPAddr("udp", cfg.server)
	if err != nil {
		return nil, err
	}
	la, err := net.ResolveUDPAddr("udp", cfg.listen)
	if err != nil {
		return nil, err
	}
	ln, err := net.ListenUDP("udp", la)
	if err != nil {
		return nil, err
	}
	_ = ln.SetReadBuffer(socketBuffer)
	_ = ln.SetWriteBuffer(socketBuffer)
	p := &proxy{
		cfg:     cfg,
		ln:      ln,
		local:   unmap(ln.LocalAddr().(*net.UDPAddr).AddrPort()),
		server:  unmap(srv.AddrPort()),
		start:   time.Now(),
		clients: newClientTable(cfg.maxClients, cfg.idle),
		every:   min(max(cfg.idle/4, 5*time.Millisecond), time.Second),
	}
	p.sched = newScheduler(heldBound, p.sendHeld)
	if cfg.log != "none" {
		p.log = newLogger(logOut, cfg.log == "json", p.server)
	}
	if cfg.pcap != "" {
		if p.pcap, err = createPcap(cfg.pcap, p.server, p.write); err != nil {
			ln.Close()
			return nil, err
		}
	}
	return p, nil
}

// addr is the address the proxy listens on.
func (p *proxy) addr() netip.AddrPort { return p.local }

// run forwards until ctx ends, then stops every goroutine it started and
// returns the pcap file's error, if any.
func (p *proxy) run(ctx context.Context) error {
	go p.sched.run()
	stop := context.AfterFunc(ctx, func() { p.ln.Close() })
	defer stop()
	p.listen()
	// The scheduler stops first: a datagram due once the sockets are
	// closed would fail; still held, it is unsent at exit.
	p.sched.stop()
	for _, c := range p.clients.byAddr {
		c.conn.Close()
	}
	p.readers.Wait()
	for _, h := range p.sched.left() {
		h.c.stats[h.dir].drops[dropUnsent].Add(1)
		p.unsent++
	}
	p.clients.settle(true, nil)
	if p.pcap != nil {
		return p.pcap.close()
	}
	return nil
}

// listen is the listening loop: datagrams from clients, until the socket
// is closed. It looks for idle clients every p.every, between datagrams or
// woken by a read deadline.
func (p *proxy) listen() {
	buf := make([]byte, maxDatagram)
	next := p.housekeep(time.Now())
	for {
		n, from, err := p.ln.ReadFromUDPAddrPort(buf)
		now := time.Now()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			if errors.Is(err, os.ErrDeadlineExceeded) || now.After(next) {
				next = p.housekeep(now)
			}
			continue
		}
		p.fromClient(unmap(from), buf[:n], now)
		if now.After(next) {
			next = p.housekeep(now)
		}
	}
}

// fromClient forwards one datagram from a client, taking it into the
// table if it is new and there is room.
func (p *proxy) fromClient(from netip.AddrPort, b []byte, now time.Time) {
	c := p.clients.byAddr[from]
	if c == nil {
		if p.clients.full() {
			if e := p.clients.evictable(); e != nil {
				p.retire(e, true)
			}
		}
		if p.clients.full() {
			p.clients.refused++
			p.logDatagram(from, up, b, now, verdict{dropped: true, reason: dropFull})
			return
		}
		var err error
		if c, err = p.openClient(from); err != nil {
			p.clients.unopened++
			p.logDatagram(from, up, b, now, verdict{dropped: true, reason: dropSocket})
			return
		}
	}
	c.lastUp = now.Sub(p.start)
	p.forward(c, up, b, now)
}

// openClient is newClient, tried again once after evicting a client when
// no socket could be opened: the system's sockets may run out before
// -max-clients, and a flood of new addresses should not lock out the next.
func (p *proxy) openClient(from netip.AddrPort) (*client, error) {
	c, err := p.newClient(from)
	if err == nil {
		return c, nil
	}
	e := p.clients.evictable()
	if e == nil {
		return nil, err
	}
	p.retire(e, true)
	return p.newClient(from)
}

// newClient opens the upstream socket of a new client address and starts
// its reader.
func (p *proxy) newClient(from netip.AddrPort) (*client, error) {
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(p.server))
	if err != nil {
		return nil, err
	}
	_ = conn.SetReadBuffer(socketBuffer)
	_ = conn.SetWriteBuffer(socketBuffer)
	c := &client{
		addr:  from,
		conn:  conn,
		local: unmap(conn.LocalAddr().(*net.UDPAddr).AddrPort()),
		front: p.local,
		buf:   make([]byte, maxDatagram),
		done:  make(chan struct{}),
	}
	if p.pcap != nil && p.local.Addr().IsUnspecified() {
		c.front = netip.AddrPortFrom(routeTo(from), p.local.Port())
	}
	p.clients.add(c)
	for d, params := range [2]netem.Params{p.cfg.up, p.cfg.down} {
		if !params.None() {
			c.links[d] = netem.NewLink(params, p.start, netem.Seed(p.cfg.seed, linkKey(c.n, direction(d))))
		}
	}
	now := time.Since(p.start)
	c.lastUp = now
	c.lastDown.Store(int64(now))
	p.readers.Add(1)
	go p.fromServer(c)
	if p.joined != nil {
		p.joined(c)
	}
	return c, nil
}

// fromServer is a client's reader: datagrams from the server for it, until
// its socket is closed.
func (p *proxy) fromServer(c *client) {
	defer p.readers.Done()
	defer close(c.done)
	for {
		n, err := c.conn.Read(c.buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue // an ICMP error of an earlier datagram: no server yet
		}
		now := time.Now()
		c.lastDown.Store(int64(now.Sub(p.start)))
		p.forward(c, down, c.buf[:n], now)
	}
}

// housekeep forgets the clients idle at now, flushes the pcap file, and
// returns when to do it again, which the read deadline enforces.
func (p *proxy) housekeep(now time.Time) time.Time {
	p.scratch = p.clients.idleOnes(now.Sub(p.start), p.scratch[:0])
	for _, c := range p.scratch {
		p.retire(c, false)
	}
	clear(p.scratch)
	p.clients.settle(false, p.forgot)
	if p.pcap != nil {
		_ = p.pcap.flush()
	}
	next := now.Add(p.every)
	_ = p.ln.SetReadDeadline(next)
	return next
}

// retire closes the socket of c, waits for its reader to stop and takes it
// out of the table, forgotten for idleness or evicted for room; its totals
// are summed once nothing of it is held. The log forgets its connection:
// if the address comes back, the server sees it from a new upstream port,
// a client it never met (§3).
func (p *proxy) retire(c *client, evicted bool) {
	c.conn.Close()
	<-c.done
	p.clients.retire(c, evicted)
	if p.log != nil {
		p.log.forget(c.addr)
	}
	if evicted {
		p.clients.settle(false, p.forgot)
	}
}

// routeTo is the local address the system sends from to reach a, which is
// the source a sees for datagrams from a socket on every address.
func routeTo(a netip.AddrPort) netip.Addr {
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(a))
	if err != nil {
		return netip.Addr{}
	}
	defer c.Close()
	return unmap(c.LocalAddr().(*net.UDPAddr).AddrPort()).Addr()
}

// unmap turns an IPv4-mapped IPv6 address into IPv4.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
