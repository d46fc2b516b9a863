package bot

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// scripted runs a UDP server on loopback that answers every datagram with
// what answer returns, nothing when it returns nil, until the test ends.
func scripted(t *testing.T, answer func(b []byte) []byte) netip.AddrPort {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	go func() {
		buf := make([]byte, rtype.MaxDatagramSize)
		for {
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			if out := answer(buf[:n]); out != nil {
				_, _ = conn.WriteToUDPAddrPort(out, from)
			}
		}
	}()
	return conn.LocalAddr().(*net.UDPAddr).AddrPort()
}

// welcoming is a scripted server that welcomes every Hello with id (§4.3)
// and answers each connected packet with one of its own, numbered from 1
// and acknowledging it (§5.1, §5.2), holding what more appends, if more is
// not nil.
func welcoming(t *testing.T, id uint32, more func(seq uint32, out []byte) []byte) netip.AddrPort {
	var seq uint32
	return scripted(t, func(b []byte) []byte {
		if typ, _, err := rtype.ParseHandshake(b); err == nil && typ == rtype.HandshakeHello {
			return rtype.AppendWelcome(nil, id)
		}
		p, err := rtype.ParsePacket(b)
		if err != nil {
			return nil
		}
		seq++
		out, _ := rtype.PacketHeader{ConnectionID: id, Sequence: seq, Ack: p.Header().Sequence}.AppendBinary(nil)
		if more != nil {
			out = more(seq, out)
		}
		return out
	})
}

// A server that welcomes a bot and then answers each of its packets with
// an empty one, as one with every player slot taken does, keeps it
// waiting: the bot gives up Duration after its Welcome, not ok, and says
// it never got the world (§10).
func TestBotWaitingForTheWorld(t *testing.T) {
	t.Parallel()
	addr := welcoming(t, 7, nil)
	b := New(Config{Server: addr, Name: "b", Duration: 300 * time.Millisecond})
	r := runWithin(t, b, 5*time.Second)
	if !r.Connected || r.Playing || r.Err != nil || r.State != session.Waiting {
		t.Fatalf("connected=%v playing=%v err=%v state=%v, want welcomed and waiting", r.Connected, r.Playing, r.Err, r.State)
	}
	if r.Status() != "waiting" || r.OK() {
		t.Fatalf("status %q, want waiting", r.Status())
	}
	if r.Client.PacketsAccepted == 0 {
		t.Fatal("the empty packets did not reach the client")
	}
}

// A server that creates two entities and then lists only one in its
// Snapshots, as a version 1 server does after the other's DestroyEntity was
// lost (§13.4): the bot's client removes the other a second of server ticks
// later (ExpireUnlisted, §8.1: Snapshots every 3 ticks), the bot counts it,
// and keeps the listed one.
func TestBotExpiresUnlisted(t *testing.T) {
	t.Parallel()
	addr := welcoming(t, 9, func(seq uint32, out []byte) []byte {
		if seq == 1 {
			for _, n := range []uint32{1, 2} {
				out, _ = rtype.AppendMessage(out, rtype.CreateEntity{ServerTick: 3, NetworkID: n, EntityType: rtype.ArchetypeEnemyBidos})
			}
		}
		snap := rtype.Snapshot{ServerTick: 3 * seq, States: []rtype.EntityState{{NetworkID: 1}}}
		out, _ = rtype.AppendMessage(out, snap)
		return out
	})
	b := New(Config{Server: addr, Name: "b", Duration: time.Second})
	r := runWithin(t, b, 5*time.Second)
	if !r.OK() || r.Created != 2 {
		t.Fatalf("status %q (%s), %d created, want ok and 2", r.Status(), r.Why(), r.Created)
	}
	if r.Expired != 1 || r.Entities != 1 {
		t.Fatalf("%d expired, %d entities left, want the unlisted one expired and the listed one kept", r.Expired, r.Entities)
	}
}

// A bot answered Rejected (§4.4) stops at once and says so.
func TestBotRejected(t *testing.T) {
	t.Parallel()
	addr := scripted(t, func([]byte) []byte { return rtype.AppendRejected(nil) })
	b := New(Config{Server: addr, Name: "b", Duration: 10 * time.Second})
	r := runWithin(t, b, 5*time.Second)
	if !r.Rejected || r.Connected || !errors.Is(r.Err, session.ErrRejected) || r.Status() != "rejected" {
		t.Fatalf("rejected=%v connected=%v err=%v status=%q, want rejected", r.Rejected, r.Connected, r.Err, r.Status())
	}
}

// runWithin runs b and fails the test if it has not returned within limit.
func runWithin(t *testing.T, b *Bot, limit time.Duration) Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() { done <- b.Run(ctx) }()
	select {
	case r := <-done:
		return r
	case <-time.After(limit):
		cancel()
		<-done
		t.Fatalf("the bot did not stop within %v", limit)
		return Result{}
	}
}
