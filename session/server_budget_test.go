package session

import (
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// budgetRun plays a server for ticks at 60 per second with a world that
// changes every 10 ticks, one conforming Client at addrB, and at addrA a
// connection whose packets only keepAlive(tick) writes (nil sends nothing
// that tick). It returns, per tick, what went to addrA, and the ticks at
// which a Snapshot went to addrB.
func budgetRun(t *testing.T, cfg ServerConfig, ticks int, keepAlive func(id uint32, tick int, lastSeq uint32) []byte) (toA [][]wire, snapB map[uint32]bool, s *Server) {
	t.Helper()
	s, cp := newServer(cfg)
	for i := range 10 {
		s.Spawn(rtype.ArchetypeEnemyBidos, float64(10*i), 10, 0)
	}
	now := t0
	c := NewClient(serverAddr, ClientConfig{}, func(_ netip.AddrPort, b []byte) { s.Receive(b, addrB, now) })
	id := connect(t, s, cp, addrA, now)
	snapB = map[uint32]bool{}
	toA = make([][]wire, ticks)
	var lastSeqA uint32
	route := func(k int) {
		for _, w := range cp.take() {
			switch w.to {
			case addrA:
				toA[k] = append(toA[k], w)
				h, _ := messages(t, w.b)
				lastSeqA = h.Sequence
			case addrB:
				if _, _, err := rtype.ParseHandshake(w.b); err != nil && len(ofType(t, []wire{w}, rtype.TypeSnapshot)) > 0 {
					snapB[s.ServerTick()] = true
				}
				c.Receive(w.b, serverAddr, now)
			}
		}
	}
	for k := range ticks {
		now = now.Add(time.Second / 60)
		c.Update(now)
		if c.State().Connected() {
			if err := c.SendInput(0, now); err != nil {
				t.Fatal(err)
			}
		}
		if b := keepAlive(id, k, lastSeqA); b != nil {
			s.Receive(b, addrA, now)
		}
		route(k)
		if k%10 == 0 {
			id := s.Spawn(rtype.ArchetypeBullet, 5, 5, 0)
			if k%20 == 0 {
				_ = s.Destroy(id, rtype.DestroyGameplay)
			}
		}
		s.Tick(now)
		route(k)
		for range s.Events() {
		}
		for range c.Events() {
		}
	}
	if !c.State().Connected() {
		t.Fatalf("the conforming client is %v", c.State())
	}
	return toA, snapB, s
}

// worldTraffic reports whether a datagram carries world traffic: a Snapshot, a
// CreateEntity or a DestroyEntity (§8); what else the server sends is an
// empty probe or a 1:1 answer (§7.2, §7.4).
func worldTraffic(t *testing.T, w wire) bool {
	_, ms := messages(t, w.b)
	for _, m := range ms {
		switch m.Type {
		case rtype.TypeSnapshot, rtype.TypeCreateEntity, rtype.TypeDestroyEntity:
			return true
		}
	}
	return false
}

// §12: an attacker on the path sees the Welcome sent to a spoofed address,
// so it can open a connection bound to that address and keep it alive
// with a 16-byte packet every 5 s. Once
// SendBudget (64) packets sent to a connection are all unacknowledged, it
// gets no more Snapshot, CreateEntity or DestroyEntity, only an empty
// probe per packet it sends; an ack of a recent packet resumes the world
// traffic at once. A conforming client in the same server, which
// acknowledges with every Input, receives every Snapshot.
func TestServer_12_SendBudget(t *testing.T) {
	const ticks = 20 * 60
	every5s := func(id uint32, k int, _ uint32) []byte {
		if k%300 != 299 {
			return nil
		}
		return packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: uint32(2 + k/300)})
	}
	tests := []struct {
		name      string
		cfg       ServerConfig
		keepAlive func(id uint32, k int, lastSeq uint32) []byte
		// maxWorld bounds the packets with world traffic addrA gets,
		// minLate the world packets it gets in the last second.
		maxWorld, minLate int
	}{
		{"keep-alive with ack 0 every 5 s", ServerConfig{}, every5s, DefaultSendBudget + 1, 0},
		{"budget of 10", ServerConfig{SendBudget: 10}, every5s, 11, 0},
		{"reliable events off", ServerConfig{ReliableEvents: Off}, every5s, DefaultSendBudget + 1, 0},
		{"budget off: the v1 behaviour", ServerConfig{SendBudget: Off}, every5s, ticks, 19},
		{"acks again after 10 s", ServerConfig{}, func(id uint32, k int, last uint32) []byte {
			if k < 600 {
				return every5s(id, k, last)
			}
			return packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: uint32(10 + k), Ack: last})
		}, ticks, 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toA, snapB, s := budgetRun(t, tt.cfg, ticks, tt.keepAlive)
			worldA, late, probes, bytesA := 0, 0, 0, 0
			for k, ws := range toA {
				for _, w := range ws {
					bytesA += len(w.b)
					switch {
					case worldTraffic(t, w):
						worldA++
						if k >= ticks-60 {
							late++
						}
					case len(w.b) == rtype.PacketHeaderSize:
						probes++
					}
				}
			}
			t.Logf("addrA: %d world packets, %d in the last second, %d probes, %d bytes", worldA, late, probes, bytesA)
			if worldA > tt.maxWorld || late < tt.minLate {
				t.Errorf("addrA got %d world packets (%d in the last second), want at most %d (at least %d in the last second); %d probes, %d bytes",
					worldA, late, tt.maxWorld, tt.minLate, probes, bytesA)
			}
			if tt.minLate == 0 && probes > ticks/300+1 {
				t.Errorf("addrA got %d probes for %d keep-alives", probes, ticks/300)
			}
			for tick := uint32(6); tick <= s.ServerTick(); tick += 3 {
				if !snapB[tick] {
					t.Fatalf("the conforming client got no Snapshot at tick %d", tick)
				}
			}
		})
	}
}

// §7.2, §7.4, §12: past its send budget a connection still gets the Pong
// for each Ping and the CreateEntity for each QueryEntity, one packet for
// one packet, and no more.
func TestServer_12_SendBudgetAnswers(t *testing.T) {
	s, cp := newServer(ServerConfig{SendBudget: 4})
	e := s.Spawn(rtype.ArchetypeEnemyBidos, 1, 1, 0)
	id := connect(t, s, cp, addrA, t0)
	now := t0
	for range 30 {
		now = now.Add(time.Second / 60)
		s.Tick(now)
	}
	if n := len(cp.to(addrA)); n > 5 {
		t.Fatalf("%d packets sent with a budget of 4", n)
	}
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 2}, rtype.Ping{Timestamp: 7}, rtype.QueryEntity{NetworkID: e}), addrA, now)
	for range 30 {
		now = now.Add(time.Second / 60)
		s.Tick(now)
	}
	out := cp.to(addrA)
	if len(out) != 1 {
		t.Fatalf("%d packets for one Ping and QueryEntity past the budget, want 1", len(out))
	}
	if p, c := ofType(t, out, rtype.TypePong), ofType(t, out, rtype.TypeCreateEntity); len(p) != 1 || len(c) != 1 {
		t.Fatalf("answer holds %d Pong and %d CreateEntity, want 1 each", len(p), len(c))
	}
}
