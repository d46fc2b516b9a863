package host

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/mmsg"
	"github.com/rtypeproto/rtype/session"
)

// bench is one match of a host driven tick by tick, not by Run, with
// sans-I/O clients on sockets of their own: the hot path of a host, its
// datagrams real, for the allocation test and the benchmark alike.
type bench struct {
	h       *Host
	now     time.Time
	clients []*benchClient
	in      *mmsg.Batch
}

type benchClient struct {
	c    *session.Client
	conn *mmsg.Conn
	out  *mmsg.Batch
	n    int
}

func newBench(t testing.TB, players int) *bench {
	h, err := Listen(Config{Addr: "127.0.0.1:0", New: noGame})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	b := &bench{h: h, now: time.Now(), in: mmsg.NewBatch(16)}
	for range players {
		conn, err := mmsg.Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		bc := &benchClient{conn: conn, out: mmsg.NewBatch(8)}
		bc.c = session.NewClient(h.Addr(0), session.ClientConfig{}, func(to netip.AddrPort, d []byte) {
			if bc.n < len(bc.out.Msgs) {
				m := &bc.out.Msgs[bc.n]
				m.N, m.Addr = copy(m.Buf, d), to
				bc.n++
			}
		})
		b.clients = append(b.clients, bc)
	}
	for range 600 {
		if b.playing() {
			return b
		}
		b.tick()
	}
	t.Fatal("the clients did not get to play in 600 ticks")
	return nil
}

func (b *bench) playing() bool {
	for _, bc := range b.clients {
		if bc.c.State() != session.Playing {
			return false
		}
	}
	return true
}

// tick is one frame of every client (its Input, §7.1) and one tick of the
// match; the clients then read what it sent.
func (b *bench) tick() {
	b.now = b.now.Add(session.DefaultInterval)
	for _, bc := range b.clients {
		bc.c.Update(b.now)
		_ = bc.c.SendInput(rtype.ActionShoot, b.now)
		bc.out.Write(bc.conn, bc.n)
		bc.n = 0
	}
	for range b.h.loops[0].phases {
		b.h.loops[0].each(b.now)
	}
	for _, bc := range b.clients {
		n, _ := b.in.Read(bc.conn)
		for _, m := range b.in.Msgs[:n] {
			bc.c.Receive(m.Buf[:m.N], m.Addr, b.now)
		}
	}
}

// The hot path allocates nothing per datagram, metrics included.
func TestTickAllocs(t *testing.T) {
	b := newBench(t, 4)
	if allocs := testing.AllocsPerRun(300, b.tick); allocs != 0 {
		t.Fatalf("%v allocations per tick of 4 players, want 0", allocs)
	}
	var m Metrics
	b.h.ReadMetrics(&m)
	if m.DatagramsIn < 4*300 {
		t.Fatalf("the match received %d datagrams in 300 ticks of 4 players", m.DatagramsIn)
	}
}

// BenchmarkTick: one tick of a 4-player match with its clients, on real
// loopback sockets (the clients' frames counted in).
func BenchmarkTick(b *testing.B) {
	bn := newBench(b, 4)
	b.ReportAllocs()
	for b.Loop() {
		bn.tick()
	}
}
