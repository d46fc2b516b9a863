package netem_test

import (
	"fmt"
	"time"

	"github.com/rtypeproto/rtype/netem"
)

// A link on the 3g profile's downlink, fed a 1200-byte datagram every 20ms:
// each takes 4.8ms at 2 Mbit/s, then 100ms ± 30ms of delay; datagram 4
// drew a short delay but is held until datagram 3 has left, as order is
// kept. The seed makes the run repeat.
func ExampleLink_Decide() {
	p, _ := netem.LookupProfile("3g")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := netem.NewLink(p.Down, start, netem.Seed(1, 0))
	for i := range 6 {
		at := time.Duration(i) * 20 * time.Millisecond
		o := l.Decide(start.Add(at), 1200)
		if o.Drop != netem.NotDropped {
			fmt.Printf("%d: arrives at %v, dropped (%v)\n", i, at, o.Drop)
			continue
		}
		fmt.Printf("%d: arrives at %v, waits %v, leaves at %v\n", i, at, o.Wait, at+o.Wait)
	}
	// Output:
	// 0: arrives at 0s, waits 120.285307ms, leaves at 120.285307ms
	// 1: arrives at 20ms, waits 131.677738ms, leaves at 151.677738ms
	// 2: arrives at 40ms, waits 128.033511ms, leaves at 168.033511ms
	// 3: arrives at 60ms, waits 110.312122ms, leaves at 170.312122ms
	// 4: arrives at 80ms, waits 90.312122ms, leaves at 170.312122ms
	// 5: arrives at 100ms, waits 114.373662ms, leaves at 214.373662ms
}

func ExampleParseRate() {
	for _, s := range []string{"256k", "1.5M", "0", "1.5", "fast"} {
		bps, err := netem.ParseRate(s)
		fmt.Println(s, bps, err)
	}
	// Output:
	// 256k 256000 <nil>
	// 1.5M 1500000 <nil>
	// 0 0 <nil>
	// 1.5 0 netem: not a whole number of bits or bytes
	// fast 0 netem: not a number: want digits, an optional fraction and suffix, like 1.5M
}

// The profiles as a usage message lists them.
func ExampleProfiles() {
	for _, p := range netem.Profiles()[:2] {
		fmt.Printf("%s: %s\n  up:   %v\n  down: %v\n", p.Name, p.About, p.Up, p.Down)
	}
	// Output:
	// lan: wired local network: a fraction of a millisecond, nothing lost
	//   up:   delay 250µs ± 50µs, rate 1 Gbit/s, queue 64 KiB
	//   down: delay 250µs ± 50µs, rate 1 Gbit/s, queue 64 KiB
	// wifi: home Wi-Fi: a few milliseconds with spiky jitter, short loss bursts from interference
	//   up:   loss 1% in bursts of 2, delay 4ms ± 3ms, rate 50 Mbit/s, queue 64 KiB
	//   down: loss 1% in bursts of 2, delay 4ms ± 3ms, rate 50 Mbit/s, queue 64 KiB
}
