package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §13.2, §12: a lost Welcome is sent again for a repeated Hello, but at
// most once per welcomeInterval per connection: a flood of 6-byte Hellos
// from a half-open address gets a bounded number of 10-byte Welcomes. A
// client's Hello resent a second later (§4.2), even slightly early because
// of jitter, is still answered.
func TestServer_13_2_WelcomeResendRateLimited(t *testing.T) {
	// every returns n times, step apart, starting at from.
	every := func(from, step time.Duration, n int) []time.Duration {
		var at []time.Duration
		for i := range n {
			at = append(at, from+time.Duration(i)*step)
		}
		return at
	}
	tests := []struct {
		name   string
		hellos []time.Duration // after the first Hello and its Welcome
		want   string
	}{
		{"client resend after 1 s", []time.Duration{time.Second}, "1 resent, 0 limited"},
		{"client resend 50 ms early", []time.Duration{950 * time.Millisecond}, "1 resent, 0 limited"},
		{"client resends every second", every(time.Second, time.Second, 2), "2 resent, 0 limited"},
		{"100 Hellos in 10 ms", every(0, 100*time.Microsecond, 100), "0 resent, 100 limited"},
		{"1000 Hellos in 2.5 s", every(2500*time.Microsecond, 2500*time.Microsecond, 1000), "5 resent, 995 limited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(ServerConfig{})
			id := join(t, s, cp, addrA, t0)
			welcomes := 0
			for _, at := range tt.hellos {
				s.Receive(hello(), addrA, t0.Add(at))
				for _, w := range cp.take() {
					if d := cmp.Diff(rtype.AppendWelcome(nil, id), w.b); d != "" {
						t.Fatalf("sent (-want +got):\n%s", d)
					}
					welcomes++
				}
			}
			st := s.Stats()
			got := fmt.Sprintf("%d resent, %d limited", welcomes, st.WelcomesLimited)
			if got != tt.want || st.WelcomesResent != uint64(welcomes) {
				t.Errorf("%s (WelcomesResent %d), want %s", got, st.WelcomesResent, tt.want)
			}
		})
	}
}
