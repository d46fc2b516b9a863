package session

import (
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// tap is one side's hooks: it records what they saw, and loses the
// datagrams its lose functions pick.
type tap struct {
	loseIn, loseOut func(b []byte) bool

	seen             []string // "in:Hello", "out:packet" …
	in, out          int      // datagrams seen
	lostIn, lostOut  int      // of which lost
	bytesIn, keptOut int      // bytes of the received ones let through; datagrams sent let through
	from             netip.AddrPort
}

func (tp *tap) hooks() *Hooks {
	return &Hooks{
		OnReceive: func(from netip.AddrPort, b []byte) bool {
			tp.in++
			tp.from = from
			tp.seen = append(tp.seen, "in:"+kind(b))
			if tp.loseIn != nil && tp.loseIn(b) {
				tp.lostIn++
				return false
			}
			tp.bytesIn += len(b)
			return true
		},
		OnSend: func(to netip.AddrPort, b []byte) bool {
			tp.out++
			tp.seen = append(tp.seen, "out:"+kind(b))
			if tp.loseOut != nil && tp.loseOut(b) {
				tp.lostOut++
				return false
			}
			tp.keptOut++
			return true
		},
	}
}

// kind names a datagram the way a stateless tool can: a valid handshake
// datagram by its type, anything else as a packet (§3).
func kind(b []byte) string {
	if t, _, err := rtype.ParseHandshake(b); err == nil {
		return t.String()
	}
	return "packet"
}

// hookPair runs a client and a server with hooks on an in-memory link for
// 60 frames of 200 ms, past the client's 10 s GiveUp, the client resending
// Hello every second, each answered by a Welcome (§13.2), and sending an
// Input every frame; it returns how many datagrams each SendFunc was
// handed.
// Each side's hooks wrap its SendFunc and its Receive as a UDP binding
// wraps them (udpLoop).
func hookPair(cli, srv *tap) (c *Client, s *Server, cliSent, srvSent int) {
	var toSrv, toCli [][]byte
	sh, ch := srv.hooks(), cli.hooks()
	s = NewServer(ServerConfig{}, sh.sendFunc(func(_ netip.AddrPort, b []byte) { toCli = append(toCli, slices.Clone(b)) }))
	c = NewClient(serverAddr, ClientConfig{},
		ch.sendFunc(func(_ netip.AddrPort, b []byte) { toSrv = append(toSrv, slices.Clone(b)) }))
	now := t0
	for range 60 {
		c.Update(now)
		_ = c.SendInput(0, now)
		cliSent += len(toSrv)
		for _, b := range toSrv {
			if sh.received(addrA, b) {
				s.Receive(b, addrA, now)
			}
		}
		toSrv = nil
		s.Tick(now)
		srvSent += len(toCli)
		for _, b := range toCli {
			if ch.received(serverAddr, b) {
				c.Receive(b, serverAddr, now)
			}
		}
		toCli = nil
		now = now.Add(200 * time.Millisecond)
	}
	return c, s, cliSent, srvSent
}

// §3: the hooks see every datagram of both kinds, before any check; one a
// hook returns false for is lost as the network would lose it: a lost
// receive is not counted, a lost send is counted as sent and never reaches
// the SendFunc.
func TestHooks_3_SeeEveryDatagram(t *testing.T) {
	all := func([]byte) bool { return true }
	welcome := func(b []byte) bool { return kind(b) == "Welcome" }
	n := 0
	everyOther := func([]byte) bool { n++; return n%2 == 1 }
	tests := []struct {
		name     string
		cli, srv tap
		state    State
		cliFirst []string // what the client's hooks saw first
		deaf     bool     // nothing reaches the client: it never held the id (§12)
	}{
		{"observe only", tap{}, tap{}, Playing,
			[]string{"out:Hello", "in:Welcome", "out:packet", "in:packet"}, false},
		{"the client hears nothing", tap{loseIn: all}, tap{}, Closed,
			[]string{"out:Hello", "in:Welcome", "out:Hello", "in:Welcome"}, false},
		{"the server loses every Welcome", tap{}, tap{loseOut: welcome}, Closed,
			[]string{"out:Hello", "out:Hello"}, true},
		{"the client loses every other datagram it sends", tap{loseOut: everyOther}, tap{}, Playing,
			[]string{"out:Hello", "out:Hello", "in:Welcome"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s, cliSent, srvSent := hookPair(&tt.cli, &tt.srv)
			if c.State() != tt.state {
				t.Errorf("client %v, want %v", c.State(), tt.state)
			}
			if got := tt.cli.seen[:min(len(tt.cli.seen), len(tt.cliFirst))]; !slices.Equal(got, tt.cliFirst) {
				t.Errorf("client hooks saw %v first, want %v", got, tt.cliFirst)
			}
			if len(tt.srv.seen) == 0 || tt.srv.seen[0] != "in:Hello" || tt.srv.from != addrA {
				t.Errorf("server hooks saw %v, last from %v; want a Hello from %v first", tt.srv.seen[:min(3, len(tt.srv.seen))], tt.srv.from, addrA)
			}
			for _, side := range []struct {
				name string
				tp   *tap
				st   Counters
				sent int
			}{{"client", &tt.cli, c.Stats().Counters, cliSent}, {"server", &tt.srv, s.Stats().Counters, srvSent}} {
				tp, st := side.tp, side.st
				if deaf := tt.deaf && side.name == "client"; (tp.in < 5) != deaf || deaf && tp.in != 0 || tp.out < 5 {
					t.Errorf("%s hooks saw %d in, %d out", side.name, tp.in, tp.out)
				}
				if st.PacketsIn != uint64(tp.in-tp.lostIn) || st.BytesIn != uint64(tp.bytesIn) {
					t.Errorf("%s counted %d datagrams, %d bytes in; hooks let %d, %d through", side.name, st.PacketsIn, st.BytesIn, tp.in-tp.lostIn, tp.bytesIn)
				}
				if st.PacketsOut != uint64(tp.out) || side.sent != tp.keptOut {
					t.Errorf("%s counted %d sent, SendFunc got %d; hooks saw %d, kept %d", side.name, st.PacketsOut, side.sent, tp.out, tp.keptOut)
				}
			}
		})
	}
}
