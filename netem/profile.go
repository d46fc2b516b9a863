package netem

import "time"

// Profile is a named pair of directions modelled on a kind of access link.
// The figures are one-way: a round trip costs Up.Delay + Down.Delay.
type Profile struct {
	// Name is what -profile takes; About says what the figures model.
	Name, About string
	// Up is the client → server direction, Down server → client.
	Up, Down Params
}

// profiles are kept in the order -help lists them, fastest first.
var profiles = [...]Profile{
	{
		Name:  "lan",
		About: "wired local network: a fraction of a millisecond, nothing lost",
		Up:    Params{Delay: 250 * time.Microsecond, Jitter: 50 * time.Microsecond, Rate: 1e9},
		Down:  Params{Delay: 250 * time.Microsecond, Jitter: 50 * time.Microsecond, Rate: 1e9},
	},
	{
		Name:  "wifi",
		About: "home Wi-Fi: a few milliseconds with spiky jitter, short loss bursts from interference",
		Up:    Params{Loss: 0.01, Burst: 2, Delay: 4 * time.Millisecond, Jitter: 3 * time.Millisecond, Rate: 50e6},
		Down:  Params{Loss: 0.01, Burst: 2, Delay: 4 * time.Millisecond, Jitter: 3 * time.Millisecond, Rate: 50e6},
	},
	{
		Name:  "dsl",
		About: "ADSL line: interleaving delay, a slow uplink with a deep buffer",
		Up:    Params{Loss: 0.002, Delay: 15 * time.Millisecond, Jitter: 2 * time.Millisecond, Rate: 1e6, Queue: 128 << 10},
		Down:  Params{Loss: 0.002, Delay: 15 * time.Millisecond, Jitter: 2 * time.Millisecond, Rate: 16e6},
	},
	{
		Name:  "3g",
		About: "3G mobile: long and variable delay, losses in bursts during handovers, little bandwidth",
		Up:    Params{Loss: 0.02, Burst: 3, Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond, Rate: 512e3},
		Down:  Params{Loss: 0.02, Burst: 3, Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond, Rate: 2e6},
	},
	{
		Name:  "satellite",
		About: "geostationary satellite: over a quarter second each way, steady otherwise",
		Up:    Params{Loss: 0.005, Delay: 300 * time.Millisecond, Jitter: 10 * time.Millisecond, Rate: 2e6},
		Down:  Params{Loss: 0.005, Delay: 300 * time.Millisecond, Jitter: 10 * time.Millisecond, Rate: 10e6},
	},
	{
		Name:  "lossy",
		About: "a bad link for stress tests: a fifth of the datagrams lost, some reordered or duplicated",
		Up:    Params{Loss: 0.2, Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Reorder: 0.02, Dup: 0.02},
		Down:  Params{Loss: 0.2, Delay: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Reorder: 0.02, Dup: 0.02},
	},
}

// Profiles lists the named profiles, in a fresh slice the caller may keep.
func Profiles() []Profile { return append([]Profile(nil), profiles[:]...) }

// LookupProfile finds the profile called name.
func LookupProfile(name string) (Profile, bool) {
	for _, p := range profiles {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}
