package session_test

import (
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
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
		cfg     session.ServerConfig
	}{
		{"20,000 Hellos/s from 2000 addresses", 20000, 2000, session.ServerConfig{}},
		{"20,000 Hellos/s, 1 s inactivity", 20000, 2000, session.ServerConfig{InactivityTimeout: time.Second}},
		{"no flood", 0, 0, session.ServerConfig{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim := rtypetest.NewSim(20000)
			flood := netip.MustParsePrefix("198.18.0.0/15")
			floodOut := 0
			var srv *session.Server
			toNet, err := sim.Attach(serverAddr, func(b []byte, from netip.AddrPort, now time.Time) { srv.Receive(b, from, now) })
			if err != nil {
				t.Fatal(err)
			}
			// The spoofed Hellos come from no endpoint of the Sim: the
			// server's answers to them are counted here, not sent.
			cfg := tt.cfg
			cfg.ValidationKey = simKey(20000)
			srv = session.NewServer(cfg, func(to netip.AddrPort, b []byte) {
				if flood.Contains(to.Addr()) {
					floodOut++
					if typ, _, err := rtype.ParseHandshake(b); err != nil || typ == rtype.HandshakeHello {
						t.Fatalf("sent % x to a spoofed address", b)
					}
					return
				}
				toNet(to, b)
			})
			var clients []*session.Client
			var addrs []netip.AddrPort
			for i := range 4 {
				a := netip.AddrPortFrom(netip.MustParseAddr("203.0.113.40"), uint16(8000+i))
				addrs = append(addrs, a)
				clients = append(clients, sim.NewClient(a, serverAddr, session.ClientConfig{}))
				delay := netem.Params{Delay: 50 * time.Millisecond}
				impairBoth(t, sim, a, delay, delay)
			}
			hellos, sent := 0, 0
			h := rtype.AppendHello(nil)
			joined := map[netip.AddrPort]bool{}
			for tick := range 3 * 60 {
				// The flood, spread evenly over the frame, between the
				// datagrams the Sim delivers.
				start, first, due := sim.Now(), sent, (tick+1)*tt.perSec/60
				for ; sent < due; sent++ {
					sim.Advance(start.Add(time.Duration(sent-first) * frame / time.Duration(due-first)).Sub(sim.Now()))
					i := sent % max(tt.spoofed, 1)
					a := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i >> 8), byte(i)}), uint16(1024+i))
					srv.Receive(h, a, sim.Now())
					hellos++
				}
				sim.Advance(start.Add(frame).Sub(sim.Now()))
				now := sim.Now()
				for e := range srv.Events() {
					if e.Kind == session.EventPlayerJoined {
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
				if !joined[addrs[i]] || c.State() != session.Playing || c.Stats().Snapshots == 0 {
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
