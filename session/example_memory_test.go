package session_test

import (
	"bytes"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// link is an in-memory network: what a side sends waits until the next
// deliver, no socket involved.
type link struct {
	server, player netip.AddrPort
	toServer       [][]byte
	toPlayer       [][]byte
	// lose, if set, picks the datagrams to the player that the link loses.
	lose func(b []byte) bool
}

// A SendFunc must copy the datagram, and must not call back into the
// side that sends it: it only queues.
func (l *link) serverSend(_ netip.AddrPort, b []byte) {
	l.toPlayer = append(l.toPlayer, bytes.Clone(b))
}
func (l *link) playerSend(_ netip.AddrPort, b []byte) {
	l.toServer = append(l.toServer, bytes.Clone(b))
}

// deliver hands each side what the other sent before the call; what they
// send in answer waits for the next one.
func (l *link) deliver(srv *session.Server, cli *session.Client, now time.Time) {
	toServer, toPlayer := l.toServer, l.toPlayer
	l.toServer, l.toPlayer = nil, nil
	for _, b := range toServer {
		srv.Receive(b, l.player, now)
	}
	for _, b := range toPlayer {
		if l.lose == nil || !l.lose(b) {
			cli.Receive(b, l.server, now)
		}
	}
}

// A client and a server talking in memory: the client connects (§4), the
// server spawns its ship and sends it (§8.2, §10), the client flies right
// with one Input per frame (§7.1), Snapshots move the ship (§8.1), a Ping
// measures the round trip (§7.2), and Disconnect ends the session (§7.3).
// Time only moves when the caller says so, which makes it a test.
func Example() {
	l := &link{
		server: netip.MustParseAddrPort("192.0.2.1:4242"),
		player: netip.MustParseAddrPort("198.51.100.7:50000"),
	}
	srv := session.NewServer(session.ServerConfig{}, l.serverSend)
	cli := session.NewClient(l.server, session.ClientConfig{}, l.playerSend)
	ship := uint32(0)
	x := 150.0

	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	const frame = time.Second / 60
	for range 7 {
		cli.Update(now)
		_ = cli.SendInput(rtype.ActionRight, now) // ErrNotConnected before Welcome
		now = now.Add(frame / 2)                  // half a frame on the wire
		l.deliver(srv, cli, now)

		for ev := range srv.Events() {
			switch ev.Kind {
			case session.EventPlayerJoined:
				fmt.Printf("server: player joined in slot %d\n", ev.Slot)
				ship, _ = srv.SpawnFor(ev.Conn, rtype.ArchetypePlayerBlue, x, 150, 0)
			case session.EventInput:
				vx, _ := ev.Input.Actions.Velocity(4)
				x += vx
				_ = srv.Move(ship, x, 150, 0)
			}
		}
		srv.Tick(now)
		now = now.Add(frame / 2)
		l.deliver(srv, cli, now)

		for ev := range cli.Events() {
			switch ev.Kind {
			case session.EventConnected:
				fmt.Println("client: connected")
			case session.EventEntityCreated:
				fmt.Printf("client: %v %v %d at x=%v (tick %d)\n", ev.Kind, ev.Entity.Archetype, ev.Entity.ID, ev.Entity.X, ev.Tick)
			case session.EventSnapshot: // the positions are in the entity table
				e, _ := cli.Entity(ship)
				fmt.Printf("client: %v, %v %d at x=%v (tick %d)\n", ev.Kind, e.Archetype, e.ID, e.X, ev.Tick)
			case session.EventPong:
				fmt.Printf("client: round trip %v\n", ev.RTT.Round(time.Microsecond))
			}
		}
	}
	cli.Close(now)
	l.deliver(srv, cli, now)
	for ev := range srv.Events() {
		if ev.Kind == session.EventPlayerLeft {
			final, _ := srv.ConnStats(ev.Conn)
			fmt.Printf("server: player left (%v, %v), %d packets sent to it\n", ev.Close, ev.Disconnect, final.Sent)
		}
	}
	st := cli.Stats()
	fmt.Printf("client: %d Snapshots, %d of the server's packets lost\n", st.Snapshots, st.PacketsLost)

	// Output:
	// client: connected
	// server: player joined in slot 0
	// client: round trip 16.667ms
	// client: EntityCreated player_blue 1 at x=154 (tick 2)
	// client: Snapshot, player_blue 1 at x=158 (tick 3)
	// client: Snapshot, player_blue 1 at x=170 (tick 6)
	// server: player left (Disconnect, ClientQuit), 4 packets sent to it
	// client: 2 Snapshots, 0 of the server's packets lost
}

// connect runs frames until the client is connected and knows the
// server's entities.
func connect(l *link, srv *session.Server, cli *session.Client, now time.Time) time.Time {
	for range 3 {
		cli.Update(now)
		_ = cli.SendInput(0, now)
		l.deliver(srv, cli, now)
		srv.Tick(now)
		l.deliver(srv, cli, now)
		now = now.Add(time.Second / 60)
	}
	return now
}

// Ending the game (§8.3): Shutdown destroys every entity with reason 4 and
// sends it at once; Close then ends every connection, and each
// EventPlayerLeft carries the player's final counters.
func ExampleServer_Shutdown() {
	l := &link{
		server: netip.MustParseAddrPort("192.0.2.1:4242"),
		player: netip.MustParseAddrPort("198.51.100.7:50000"),
	}
	srv := session.NewServer(session.ServerConfig{}, l.serverSend)
	cli := session.NewClient(l.server, session.ClientConfig{}, l.playerSend)
	srv.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
	srv.Spawn(rtype.ArchetypeEnemyBidos, 2000, 400, 0)
	now := connect(l, srv, cli, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	fmt.Println("client knows", cli.NumEntities(), "entities")

	srv.Shutdown(now)
	l.deliver(srv, cli, now)
	for ev := range cli.Events() {
		if ev.Kind == session.EventEntityDestroyed {
			fmt.Printf("client: %v %d destroyed: %v\n", ev.Entity.Archetype, ev.Entity.ID, ev.Destroy)
		}
	}
	srv.Close(now)
	for ev := range srv.Events() {
		if ev.Kind == session.EventPlayerLeft {
			final, _ := srv.ConnStats(ev.Conn)
			fmt.Printf("server: player left (%v) after %d packets\n", ev.Close, final.Sent)
		}
	}
	// Output:
	// client knows 2 entities
	// client: enemyBidos 1 destroyed: GameEnded
	// client: enemyBidos 2 destroyed: GameEnded
	// server: player left (Shutdown) after 4 packets
}

// A caller driving both sides holds every datagram, so it can lose one as
// a lossy network would: here the link loses the first packet to the
// client that carries the CreateEntity of the Bydos. The next Snapshot
// lists an id the client does not know, so it asks with QueryEntity
// (§7.4), and the server's answer arrives before the resend the acks would
// have caused (§13.4): none is needed.
func Example_lostCreation() {
	var seen []string
	lost := false
	l := &link{
		server: netip.MustParseAddrPort("192.0.2.1:4242"),
		player: netip.MustParseAddrPort("198.51.100.7:50000"),
		lose: func(b []byte) bool {
			if _, _, err := rtype.ParseHandshake(b); err == nil {
				seen = append(seen, "handshake")
				return false
			}
			p, err := rtype.ParsePacket(b)
			if err != nil {
				return false
			}
			seen = append(seen, fmt.Sprint("packet ", p.Header().Sequence))
			for m := range p.Messages() {
				if m.Type == rtype.TypeCreateEntity && !lost {
					lost = true
					return true
				}
			}
			return false
		},
	}
	srv := session.NewServer(session.ServerConfig{SnapshotInterval: 1}, l.serverSend)
	cli := session.NewClient(l.server, session.ClientConfig{}, l.playerSend)
	srv.Spawn(rtype.ArchetypeEnemyBidos, 2000, 300, 0)
	now := connect(l, srv, cli, time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	connect(l, srv, cli, now)
	for ev := range cli.Events() {
		if ev.Kind == session.EventEntityCreated {
			fmt.Printf("client: %v %d created\n", ev.Entity.Archetype, ev.Entity.ID)
		}
	}
	fmt.Println("the link carried", seen)
	fmt.Println("the server resent", srv.Stats().Resends, "entity events")
	// Output:
	// client: enemyBidos 1 created
	// the link carried [handshake packet 1 packet 2 packet 3 packet 4 packet 5 packet 6 packet 7]
	// the server resent 0 entity events
}
