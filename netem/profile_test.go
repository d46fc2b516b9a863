package netem

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProfiles pins every profile's figures as -help prints them, and
// checks each one validates and is found by name.
func TestProfiles(t *testing.T) {
	want := []struct{ name, up, down string }{
		{"lan", "delay 250µs ± 50µs, rate 1 Gbit/s, queue 64 KiB", "delay 250µs ± 50µs, rate 1 Gbit/s, queue 64 KiB"},
		{"wifi", "loss 1% in bursts of 2, delay 4ms ± 3ms, rate 50 Mbit/s, queue 64 KiB", "loss 1% in bursts of 2, delay 4ms ± 3ms, rate 50 Mbit/s, queue 64 KiB"},
		{"dsl", "loss 0.2%, delay 15ms ± 2ms, rate 1 Mbit/s, queue 128 KiB", "loss 0.2%, delay 15ms ± 2ms, rate 16 Mbit/s, queue 64 KiB"},
		{"3g", "loss 2% in bursts of 3, delay 100ms ± 30ms, rate 512 kbit/s, queue 64 KiB", "loss 2% in bursts of 3, delay 100ms ± 30ms, rate 2 Mbit/s, queue 64 KiB"},
		{"satellite", "loss 0.5%, delay 300ms ± 10ms, rate 2 Mbit/s, queue 64 KiB", "loss 0.5%, delay 300ms ± 10ms, rate 10 Mbit/s, queue 64 KiB"},
		{"lossy", "loss 20%, delay 30ms ± 10ms, reorder 2% by 20ms, dup 2%", "loss 20%, delay 30ms ± 10ms, reorder 2% by 20ms, dup 2%"},
	}
	type figures struct{ Name, Up, Down string }
	var got, wantF []figures
	for _, w := range want {
		wantF = append(wantF, figures{w.name, w.up, w.down})
	}
	for _, p := range Profiles() {
		got = append(got, figures{p.Name, p.Up.String(), p.Down.String()})
		if p.About == "" {
			t.Errorf("profile %s has no About line", p.Name)
		}
		for dir, params := range map[string]Params{"up": p.Up, "down": p.Down} {
			if err := params.Validate(); err != nil {
				t.Errorf("profile %s %s: %v", p.Name, dir, err)
			}
			if params.None() {
				t.Errorf("profile %s %s impairs nothing", p.Name, dir)
			}
		}
		found, ok := LookupProfile(p.Name)
		if !ok || !cmp.Equal(found, p) {
			t.Errorf("LookupProfile(%q) = %+v, %v", p.Name, found, ok)
		}
	}
	if diff := cmp.Diff(wantF, got); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
}

// TestLookupProfileMissing: unknown names, and names that differ only in
// case, are not found.
func TestLookupProfileMissing(t *testing.T) {
	for _, name := range []string{"", "3G", "LAN", "none", "lossy "} {
		if p, ok := LookupProfile(name); ok {
			t.Errorf("LookupProfile(%q) = %+v, want not found", name, p)
		}
	}
}

// TestProfilesCopy: the caller's slice is its own.
func TestProfilesCopy(t *testing.T) {
	Profiles()[0].Up.Loss = 1
	if p := Profiles()[0]; p.Up.Loss != 0 {
		t.Errorf("changing a returned profile changed the table: %+v", p)
	}
}
