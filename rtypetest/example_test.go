package rtypetest_test

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/netem"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// A server and a client on a Sim that loses a fifth of the datagrams each
// way and delays them 30 ms: ten virtual seconds take milliseconds, and
// the same seed gives the same run, to the packet.
func ExampleSim() {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	player := netip.MustParseAddrPort("10.0.0.2:50000")
	sim := rtypetest.NewSim(42)
	srv := sim.NewServer(server, session.ServerConfig{})
	cli := sim.NewClient(player, server, session.ClientConfig{})
	lossy := netem.Params{Loss: 0.2, Delay: 30 * time.Millisecond}
	_ = sim.Impair(player, server, lossy)
	_ = sim.Impair(server, player, lossy)

	for range 10 * 60 { // 10 s of frames at 60 Hz (§10)
		sim.Advance(time.Second / 60)
		now := sim.Now()
		for ev := range srv.Events() {
			if ev.Kind == session.EventPlayerJoined {
				_, _ = srv.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, 150, 150, 0)
			}
		}
		srv.Tick(now)
		cli.Update(now)
		for range cli.Events() {
		}
		_ = cli.SendInput(rtype.ActionRight, now) // one Input per frame (§7.1)
	}
	fmt.Println("client:", cli.State())
	fmt.Println("same world:", rtypetest.WorldDiff(srv, cli, 0) == "")
	up := sim.Stats(player, server)
	fmt.Printf("player → server: %d sent, %d lost\n", up.Sent, up.Dropped(rtypetest.DropLoss))
	// Output:
	// client: Playing
	// same world: true
	// player → server: 597 sent, 135 lost
}

// A partition for 5 s, as when a player's link goes down: the server's
// inactivity timeout (§13.3) closes the connection, and the client, which
// heard nothing for its ServerTimeout, closes too.
func ExampleSim_Partition() {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	player := netip.MustParseAddrPort("10.0.0.2:50000")
	sim := rtypetest.NewSim(1)
	srv := sim.NewServer(server, session.ServerConfig{InactivityTimeout: 3 * time.Second})
	cli := sim.NewClient(player, server, session.ClientConfig{ServerTimeout: 3 * time.Second})
	frames := func(n int) {
		for range n {
			sim.Advance(time.Second / 60)
			srv.Tick(sim.Now())
			cli.Update(sim.Now())
			_ = cli.SendInput(0, sim.Now())
		}
	}
	frames(60)
	fmt.Println("before:", cli.State(), srv.NumPlayers(), "player")
	sim.Partition(player, server)
	frames(5 * 60)
	fmt.Println("after 5 s apart:", cli.State(), cli.CloseReason(), srv.NumPlayers(), "players")
	// Output:
	// before: Playing 1 player
	// after 5 s apart: Closed Timeout 0 players
}
