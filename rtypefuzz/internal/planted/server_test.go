package planted

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/rtypetest"
)

// allBugs is None and every server bug.
func allBugs() []Bug { return append([]Bug{None}, Bugs()...) }

// TestServerValidPlay plays each server, None and every bug, with valid
// traffic only: two session.Clients for 3 s, then, by hand, the valid
// datagrams that come closest to each bug's trigger. None sets a bug
// off: the server plays on and still answers.
func TestServerValidPlay(t *testing.T) {
	const d = 3 * time.Second
	for _, bug := range allBugs() {
		t.Run(bug.String()+"/sessions", func(t *testing.T) {
			inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
				srv := serve(t, nw, bug)
				checkPlay(t, playSessions(t, nw, 2, d), d)
				checkUp(t, nw, srv)
			})
		})
		for _, near := range nearMisses {
			t.Run(bug.String()+"/"+near.name, func(t *testing.T) {
				inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
					srv := serve(t, nw, bug)
					p := join(t, nw)
					near.run(t, p)
					p.send(leaveMsg(1))
					checkUp(t, nw, srv)
				})
			})
		}
	}
}

// checkUp fails t unless the server still runs and answers, and Serve
// then returns nil once its context is done.
func checkUp(t *testing.T, nw *rtypetest.Network, srv *running) {
	t.Helper()
	if err, ended := srv.ended(0); ended {
		t.Fatalf("Serve returned %v on valid traffic", err)
	}
	if !alive(t, nw, join(t, nw)) {
		t.Fatal("the server stopped answering on valid traffic")
	}
	if err := srv.stop(); err != nil {
		t.Errorf("Serve returned %v, want nil once its context is done", err)
	}
}

// nearMisses are valid datagrams next to each bug's trigger, and what the
// server must make of them.
var nearMisses = []struct {
	name string
	run  func(t *testing.T, p *player)
}{
	{"message filling the datagram exactly (TrustedLength)", func(t *testing.T, p *player) {
		p.send(ping(1))
		p.send(ping(2), msg(0x0050, nil)) // last, a size-0 message of unknown type (§6)
		wantPongs(t, p, 1, 2)
	}},
	{"packet of 8 messages (UnboundedCount)", func(t *testing.T, p *player) {
		var msgs [][]byte
		for ts := range uint32(8) {
			msgs = append(msgs, ping(10+ts))
		}
		p.send(msgs...)
		wantPongs(t, p, 17)
	}},
	{"queries of live, destroyed and unallocated ids (IDZero)", func(t *testing.T, p *player) {
		ship := p.shipID()
		p.send(query(1), query(2), query(1_000_000), query(ship), ping(20))
		created, ponged := false, false
		p.await(time.Second, func(b []byte) bool {
			created = created || hasCreate(b, ship)
			ponged = ponged || slices.Contains(pongs(b), 20)
			return created && ponged
		})
		if !created || !ponged {
			t.Errorf("CreateEntity of ship %d: %v, Pong: %v; want both (§7.4, §7.2)", ship, created, ponged)
		}
	}},
	{"sequences out of order, too old, duplicate, far ahead (WrapAround)", func(t *testing.T, p *player) {
		p.sendSeq(40, ping(40)) // new
		for seq := uint32(39); seq >= 7; seq-- {
			p.sendSeq(seq, ping(seq)) // 1 to 32 behind: out of order; 33: too old (§5.2)
		}
		p.sendSeq(40, ping(41))            // duplicate
		p.sendSeq(40+1<<31-1, ping(42))    // 2³¹−1 ahead: new
		p.sendSeq(40+1<<31-1-32, ping(43)) // 32 behind that
		p.seq = 40 + 1<<31
		got := p.pongsWithin(time.Second)
		for ts := uint32(7); ts <= 43; ts++ {
			if want := ts != 7 && ts != 41; got[ts] != want {
				t.Errorf("Pong %d: %v, want %v (§5.2)", ts, got[ts], want)
			}
		}
	}},
	{"Ping timestamps next to all ones (Hang)", func(t *testing.T, p *player) {
		p.send(ping(0))
		p.send(ping(hangMarker - 1))
		wantPongs(t, p, 0, hangMarker-1)
	}},
}

// wantPongs fails t unless a Pong of each ts comes within a second.
func wantPongs(t *testing.T, p *player, ts ...uint32) {
	t.Helper()
	for _, v := range ts {
		if !p.pong(v, time.Second) {
			t.Errorf("no Pong %d within 1s", v)
		}
	}
}

// TestServerTriggers sends each bug's trigger to each server: the
// server of that bug crashes or hangs, as a native process would, and
// every other, None included, drops it or answers and plays on.
func TestServerTriggers(t *testing.T) {
	for _, server := range allBugs() {
		for _, trigger := range Bugs() {
			t.Run(fmt.Sprintf("%v server, %v trigger", server, trigger), func(t *testing.T) {
				inBubble(t, func(t *testing.T, nw *rtypetest.Network) {
					srv := serve(t, nw, server)
					p := join(t, nw)
					p.send(ping(1)) // a first packet: the window's highest is 1
					wantPongs(t, p, 1)
					p.raw(serverTrigger(trigger, p.id, p.seq))
					p.seq++
					switch {
					case server != trigger && trigger == DisconnectReason:
						checkSurvived(t, nw, srv, join(t, nw)) // p left (§7.3)
					case server != trigger:
						checkSurvived(t, nw, srv, p)
					case trigger == Hang:
						checkHung(t, nw, srv, p)
					default:
						checkCrashed(t, srv, crashes[trigger])
					}
				})
			})
		}
	}
}

// crashes are what each bug's panic says.
var crashes = map[Bug]string{
	TrustedLength:    "slice bounds out of range [:8] with capacity 4",
	UnboundedCount:   "index out of range [8] with length 8",
	IDZero:           "nil pointer dereference",
	WrapAround:       "index out of range [2147483647] with length 33",
	DisconnectReason: "integer divide by zero",
}

func checkSurvived(t *testing.T, nw *rtypetest.Network, srv *running, p *player) {
	t.Helper()
	if err, ended := srv.ended(0); ended {
		t.Fatalf("Serve returned %v", err)
	}
	if !alive(t, nw, p) {
		t.Fatal("the server stopped answering")
	}
}

func checkCrashed(t *testing.T, srv *running, want string) {
	t.Helper()
	err, ended := srv.ended(time.Second)
	if !ended {
		t.Fatal("Serve still running 1s after the trigger")
	}
	var c *Crash
	if !errors.Is(err, ErrCrashed) || !errors.As(err, &c) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Serve returned %v; want a *Crash wrapping ErrCrashed, saying %q", err, want)
	}
	if len(c.Stack) == 0 {
		t.Error("the Crash has no stack")
	}
}

// checkHung checks that the server answers nothing more, neither a Ping
// nor a Hello, until its context ends, and that Serve then says it hung.
func checkHung(t *testing.T, nw *rtypetest.Network, srv *running, p *player) {
	t.Helper()
	if p.pong(hangMarker, time.Second) {
		t.Error("a Pong of the trigger's Ping")
	}
	if alive(t, nw, p) {
		t.Fatal("the server still answers after the Hang trigger")
	}
	if err, ended := srv.ended(0); ended {
		t.Fatalf("Serve returned %v while hung", err)
	}
	if err := srv.stop(); !errors.Is(err, ErrHung) {
		t.Fatalf("Serve returned %v once its context ended; want ErrHung", err)
	}
}
