package main

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
)

// The stages, each one adding to the one before (see the package doc).
const (
	stageHandshake = 1
	stagePackets   = 2
	stagePing      = 3
	stageShip      = 4
)

// maxConns bounds the connection table whatever the network sends (§12).
const maxConns = 64

// config is what the flags choose.
type config struct {
	stage              int
	crashAfterSnapshot bool
}

// server is the whole state of one run. One mutex guards it: the reading
// loop and, at stage 4, the ticker take it in turn.
type server struct {
	pc    packetConn
	cfg   config
	crash func() // called right after the first Snapshot with cfg.crashAfterSnapshot

	mu     sync.Mutex
	conns  map[netip.AddrPort]*conn // by address: §3 tells datagrams apart by sender
	lastID uint32                   // the last connection id given (§12: sequential)
	clock  uint64                   // counts accepted datagrams, to find the idlest connection
	game   game
}

// packetConn is what the server needs of its socket: a *net.UDPConn, or
// an in-memory one in the tests.
type packetConn interface {
	ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error)
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
}

func newServer(pc packetConn, cfg config) *server {
	return &server{pc: pc, cfg: cfg, conns: make(map[netip.AddrPort]*conn)}
}

// serve reads datagrams until pc is closed, and at stage 4 runs the game's
// ticks meanwhile. It returns nil once pc is closed and the ticker stopped.
func (s *server) serve() error {
	var wg sync.WaitGroup
	done := make(chan struct{})
	defer wg.Wait()
	defer close(done)
	if s.cfg.stage >= stageShip {
		wg.Add(1)
		go func() { defer wg.Done(); s.runTicks(done) }()
	}
	// One byte more than the largest datagram, to see one that is larger.
	buf := make([]byte, rtype.MaxDatagramSize+1)
	for {
		n, from, err := s.pc.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return nil
		}
		if err != nil {
			return err
		}
		s.receive(buf[:n], netip.AddrPortFrom(from.Addr().Unmap(), from.Port()))
	}
}

// runTicks advances the game 60 times a second (§10) until done is closed.
func (s *server) runTicks(done <-chan struct{}) {
	t := time.NewTicker(time.Second / tickRate)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			s.tick()
		}
	}
}

// receive handles one datagram. Which kind it is depends on the sender's
// address alone (§3); anything invalid is dropped without an answer (§12).
func (s *server) receive(b []byte, from netip.AddrPort) {
	if len(b) > rtype.MaxDatagramSize { // §2.2
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.conns[from]; c != nil {
		if s.cfg.stage >= stagePackets {
			s.packet(c, b)
		}
		return
	}
	s.hello(b, from)
}

// write sends one datagram. A failed send is a lost datagram, which UDP
// allows; the server goes on.
func (s *server) write(b []byte, to netip.AddrPort) {
	_, _ = s.pc.WriteToUDPAddrPort(b, to)
}
