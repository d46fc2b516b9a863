package session

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §12, §13.1: while 2000 spoofed addresses send 20,000 Hellos a second,
// four real Clients behind a 50 ms one-way delay all join and receive
// Snapshots: the server keeps nothing per Hello, so the flood evicts
// nobody's Welcome. Each spoofed Hello costs its address one answer and
// nothing else: a 10-byte Welcome, or a 6-byte Rejected once the four
// players fill the server (§4.4).
func TestServer_12_HelloFloodDoesNotLockOut(t *testing.T) {
	tests := []struct {
		name    string
		perSec  int
		spoofed int
		cfg     ServerConfig
	}{
		{"20,000 Hellos/s from 2000 addresses", 20000, 2000, ServerConfig{}},
		{"20,000 Hellos/s, 1 s inactivity", 20000, 2000, ServerConfig{InactivityTimeout: time.Second}},
		{"no flood", 0, 0, ServerConfig{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const frame = time.Second / 60
			now := t0
			net := &simNet{t: t, rng: rand.New(rand.NewPCG(20000, 4)), base: 50 * time.Millisecond, jitter: 1}
			flood := netip.MustParsePrefix("198.18.0.0/15")
			toNet := net.sender(serverAddr, &now)
			floodOut := 0
			srv := NewServer(tt.cfg, func(to netip.AddrPort, b []byte) {
				if flood.Contains(to.Addr()) {
					floodOut++
					if typ, _, err := rtype.ParseHandshake(b); err != nil || typ == rtype.HandshakeHello {
						t.Fatalf("sent % x to a spoofed address", b)
					}
					return
				}
				toNet(to, b)
			})
			var clients []*Client
			var addrs []netip.AddrPort
			for i := range 4 {
				a := netip.AddrPortFrom(netip.MustParseAddr("203.0.113.40"), uint16(8000+i))
				addrs = append(addrs, a)
				clients = append(clients, NewClient(serverAddr, ClientConfig{}, net.sender(a, &now)))
			}
			hellos, sent := 0, 0
			h := hello()
			joined := map[netip.AddrPort]bool{}
			for tick := range 3 * 60 {
				now = now.Add(frame)
				// The flood, spread evenly over the frame.
				for due := (tick + 1) * tt.perSec / 60; sent < due; sent++ {
					i := sent % max(tt.spoofed, 1)
					a := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i >> 8), byte(i)}), uint16(1024+i))
					srv.Receive(h, a, now.Add(-frame+time.Duration(sent%333)*frame/333))
					hellos++
				}
				net.deliver(now, srv, addrs, clients)
				for e := range srv.Events() {
					if e.Kind == EventPlayerJoined {
						p, _ := srv.ConnStats(e.Conn)
						joined[p.Addr] = true
						_, _ = srv.SpawnFor(e.Conn, rtype.ArchetypePlayerBlue+rtype.Archetype(e.Slot), 150, 150, 0)
					}
				}
				srv.Tick(now)
				for _, c := range clients {
					c.Update(now)
					_ = c.SendInput(rtype.ActionRight, now)
				}
			}
			for i, c := range clients {
				if !joined[addrs[i]] || c.State() != Playing || c.Stats().Snapshots == 0 {
					t.Errorf("client %d: joined %v, %v, %d Snapshots", i, joined[addrs[i]], c.State(), c.Stats().Snapshots)
				}
			}
			st := srv.Stats()
			if hellos != 3*tt.perSec || floodOut != hellos || st.Welcomes+st.Rejected != uint64(hellos+4) {
				t.Errorf("%d spoofed Hellos got %d datagrams (%d Welcomes, %d Rejected in all); want one each", hellos, floodOut, st.Welcomes, st.Rejected)
			}
			if srv.NumPlayers() != 4 || srv.NumWaiting() != 0 {
				t.Errorf("%d players, %d waiting", srv.NumPlayers(), srv.NumWaiting())
			}
		})
	}
}

// §12: a spoofed Hello costs the spoofed address one Welcome and nothing
// more. World traffic (CreateEntity, DestroyEntity, Snapshots, probes) goes
// only to a connection that has sent a valid connected packet; an address
// that got a Welcome and sent nothing gets nothing, and the whole world
// once its first packet arrives, within the 5 to 10 s its id verifies.
func TestServer_12_NoWorldTrafficBeforeFirstPacket(t *testing.T) {
	tests := []struct {
		name     string
		cfg      ServerConfig
		entities int
	}{
		{"100 entities", ServerConfig{}, 100},
		{"100 entities, reliable off", ServerConfig{DisableReliableEvents: true}, 100},
		{"empty world", ServerConfig{}, 0},
		{"no snapshots", ServerConfig{SnapshotInterval: -1}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			for i := range tt.entities {
				s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 10, 0)
			}
			id := join(t, s, cp, addrA, t0)
			now := t0
			for range 300 { // 5 s: the id verifies in the next window
				now = now.Add(time.Second / 60)
				s.Tick(now)
				if i := s.Spawn(rtype.ArchetypeEnemyBidos, 1, 1, 0); i%2 == 0 {
					_ = s.Destroy(i, rtype.DestroyGameplay)
				}
			}
			if out := cp.to(addrA); len(out) != 0 {
				t.Fatalf("sent %d datagrams (%d bytes first) to a welcomed address that sent nothing", len(out), len(out[0].b))
			}
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, now)
			s.Tick(now.Add(time.Second / 60))
			got := len(ofType(t, cp.to(addrA), rtype.TypeCreateEntity))
			if want := s.NumEntities(); got != want {
				t.Errorf("after its first packet: %d CreateEntity, want %d (the world)", got, want)
			}
		})
	}
}
