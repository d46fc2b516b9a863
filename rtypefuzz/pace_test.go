package rtypefuzz

import (
	"strings"
	"testing"
	"time"
)

// A run says why its rate fell under a tenth of its first seconds', by
// what it waited on in its last seconds, and says nothing when it did not
// fall, or was too short to tell.
func TestPaceSaysWhyTheRateFell(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rates []int
		wait  waits // each of the last seconds
		want  string
	}{
		{"steady", []int{2000, 2000, 2000, 2000, 2000, 2000}, waits{}, ""},
		{"too short", []int{2000, 2000, 10, 10, 10}, waits{open: time.Second}, ""},
		{"half", []int{2000, 2000, 2000, 1000, 1000, 1000}, waits{open: time.Second}, ""},
		{"slots never freed", []int{2000, 2000, 2000, 100, 100, 100}, waits{open: 900 * time.Millisecond},
			"waiting for Welcomes to new sessions"},
		{"slow probes", []int{2000, 2000, 2000, 100, 100, 100}, waits{probe: 900 * time.Millisecond},
			"waiting on liveness probes"},
		{"a slow reader", []int{2000, 2000, 2000, 150, 150, 150}, waits{held: 900 * time.Millisecond},
			"read about 150 datagrams a second"},
		{"nothing waited", []int{2000, 2000, 2000, 100, 100, 100}, waits{}, "the fuzzer itself was slow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p pace
			sent := 0
			for i, n := range tc.rates {
				if i >= paceWindow {
					p.waits.probe += tc.wait.probe
					p.waits.open += tc.wait.open
					p.waits.held += tc.wait.held
				}
				sent += n
				p.second(sent)
			}
			got := p.slowed()
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("slowed %q, want %q", got, tc.want)
			}
		})
	}
}

// Against a client, the waits are the clients started and the sessions
// settled.
func TestPaceSaysWhyAClientRunSlowed(t *testing.T) {
	for _, tc := range []struct {
		wait waits
		want string
	}{
		{waits{open: 900 * time.Millisecond}, "starting clients"},
		{waits{probe: 900 * time.Millisecond}, "settle"},
	} {
		p := pace{client: true}
		sent := 0
		for i, n := range []int{2000, 2000, 2000, 100, 100, 100} {
			if i >= paceWindow {
				p.waits.open += tc.wait.open
				p.waits.probe += tc.wait.probe
			}
			sent += n
			p.second(sent)
		}
		if got := p.slowed(); !strings.Contains(got, tc.want) {
			t.Errorf("slowed %q, want %q", got, tc.want)
		}
	}
}
