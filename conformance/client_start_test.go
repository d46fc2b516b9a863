package conformance

import (
	"bufio"
	"context"
	"io"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// helloClient says Hello every second (§4.2) from conn until stop is
// closed or ctx ends, then closes conn and done.
func helloClient(ctx context.Context, conn Conn, server netip.AddrPort) (quit func(), done <-chan struct{}) {
	stop, end := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(end)
		defer conn.Close()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			_, _ = conn.WriteToUDPAddrPort(rtype.AppendHello(nil), server)
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stop) }); <-end }, end
}

// A client a command starts may bind a port an earlier case's client had:
// the system hands ports out again. Once that client ended, the new one
// on its port is the case's client, not a stale sender to ignore until
// the case gives up.
func TestClientOnAnEarlierClientsPort(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		nw, o := hostileNet(Options{Run: regexp.MustCompile(`^(4\.1/1|4\.2/1)$`)})
		port := netip.MustParseAddrPort("127.0.0.1:40000")
		var started atomic.Int64
		samePort := func(ctx context.Context, server netip.AddrPort) (func(), <-chan struct{}, error) {
			conn, err := nw.Listen(port)
			if err != nil {
				return nil, nil, err
			}
			started.Add(1)
			quit, done := helloClient(ctx, conn, server)
			return quit, done, nil
		}
		rep, err := RunClient(context.Background(), samePort, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			if r.Outcome != Pass {
				t.Errorf("%s: %s %s", r.Case.ID, r.Outcome, r.Detail)
			}
		}
		if n := started.Load(); n != 2 {
			t.Errorf("%d clients started for 2 cases", n)
		}
	})
}

// claim refuses an address an earlier client had while that client may
// still send from it: always without a command, while one runs or ended
// less than inFlight ago, and when the end of one cannot be known.
func TestClaim(t *testing.T) {
	a := netip.MustParseAddrPort("127.0.0.1:50000")
	newH := func() *harness { return &harness{ep: &endpoint{}, seen: map[netip.AddrPort]bool{}} }
	now := time.Now()

	h := newH()
	if !h.claim(a, now, nil) || h.claim(a, now.Add(time.Hour), nil) {
		t.Error("by hand: a new address is claimed, a seen one never again")
	}

	h = newH()
	first := h.add(true)
	if !h.claim(a, now, first) {
		t.Fatal("a new address is not claimed")
	}
	h.ended(first, now.Add(time.Second))
	self := h.add(true)
	if h.claim(a, now.Add(time.Second+inFlight/2), self) {
		t.Error("an address claimed at once after its client ended: a late datagram of it may still come")
	}
	if !h.claim(a, now.Add(time.Second+inFlight), self) {
		t.Error("an earlier client's address is refused inFlight after that client ended")
	}

	h = newH()
	h.claim(a, now, h.add(true)) // runs on
	if h.claim(a, now.Add(time.Hour), h.add(true)) {
		t.Error("an address claimed while the earlier client on it runs")
	}

	h = newH()
	h.claim(a, now, h.add(false)) // its end cannot be known
	later := h.add(true)
	if h.claim(a, now.Add(time.Hour), later) {
		t.Error("an address claimed while the end of an earlier client cannot be known")
	}
}

// Started by hand, a run asks for one client per case that needs one,
// numbering and naming each, says when to stop it, skips the cases that
// make the client quit without asking for a client, and counts a case's
// time from its client's first Hello, not from the prompt.
func TestByHand(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		logR, logW := io.Pipe()
		nw, o := hostileNet(Options{Log: logW, Run: regexp.MustCompile(`^(4\.1/1|4\.2/1|7\.3/1|7\.3/2)$`)})
		var prompts, dones []string
		var mu sync.Mutex
		var clients atomic.Int64
		const humanDelay = 500 * time.Millisecond
		human := make(chan struct{})
		go func() {
			defer close(human)
			var server netip.AddrPort
			var quit func()
			addr := regexp.MustCompile(`listens on ([0-9.:]+);`)
			sc := bufio.NewScanner(logR)
			for sc.Scan() {
				line := sc.Text()
				mu.Lock()
				switch {
				case addr.MatchString(line):
					prompts = append(prompts, line)
					server = netip.MustParseAddrPort(addr.FindStringSubmatch(line)[1])
				case strings.Contains(line, "start your client now"):
					prompts = append(prompts, line)
					time.Sleep(humanDelay) // a human, not a wait for something
					conn, err := nw.Listen(netip.AddrPortFrom(server.Addr(), 0))
					if err == nil {
						clients.Add(1)
						quit, _ = helloClient(context.Background(), conn, server)
					}
				case strings.Contains(line, "you may stop the client"):
					dones = append(dones, line)
					if quit != nil {
						quit()
						quit = nil
					}
				}
				mu.Unlock()
			}
			if quit != nil {
				quit()
			}
		}()
		rep, err := RunClient(context.Background(), nil, o)
		logW.Close()
		<-human
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if n := clients.Load(); n != 2 {
			t.Errorf("%d clients started by hand for the 2 cases that need one", n)
		}
		want := []string{
			"skipped without a command, as they make the client quit: 7.3/1, 7.3/2",
			"case 1 of 2, 4.1/1: start your client now, against ",
			"case 2 of 2, 4.2/1: start your client now, against ",
		}
		if len(prompts) != len(want) {
			t.Fatalf("prompts:\n%s\nwant %d", strings.Join(prompts, "\n"), len(want))
		}
		for i, w := range want {
			if !strings.Contains(prompts[i], w) {
				t.Errorf("prompt %d %q lacks %q", i+1, prompts[i], w)
			}
		}
		for i, id := range []string{"4.1/1", "4.2/1"} {
			if title := "(" + caseTitle(t, id) + ")"; !strings.HasSuffix(prompts[i+1], title) {
				t.Errorf("prompt %q does not end with the title %s", prompts[i+1], title)
			}
		}
		if len(dones) != 2 || !strings.Contains(dones[0], "case 1 of 2, 4.1/1, is done") {
			t.Errorf("after the cases: %q", dones)
		}
		for _, r := range rep.Results {
			switch r.Case.ID {
			case "7.3/1", "7.3/2":
				if r.Outcome != NotRun || r.Detail != byHandQuit {
					t.Errorf("%s: %s %s, want skipped: %s", r.Case.ID, r.Outcome, r.Detail, byHandQuit)
				}
			case "4.1/1":
				// 1.2 s of watching the Hellos, from the first; the human's
				// delay before it is no part of it.
				if r.Outcome != Pass || r.Duration > 1200*time.Millisecond+humanDelay-100*time.Millisecond {
					t.Errorf("4.1/1: %s in %v: %s", r.Outcome, r.Duration, r.Detail)
				}
			default:
				if r.Outcome != Pass {
					t.Errorf("%s: %s %s", r.Case.ID, r.Outcome, r.Detail)
				}
			}
		}
	})
}

func caseTitle(t *testing.T, id string) string {
	for _, c := range Cases(ClientMode) {
		if c.ID == id {
			return c.Title
		}
	}
	t.Fatalf("no client case %s", id)
	return ""
}
