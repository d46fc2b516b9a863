package netem

import "testing"

// TestSeedPinned: the mixing is fixed, so a -seed repeats across versions.
func TestSeedPinned(t *testing.T) {
	tests := []struct {
		base   uint64
		client int
		up     bool
		want   uint64
	}{
		{1, 0, true, 0x86d6fd953217ae03},
		{1, 0, false, 0x5e41ab087439611e},
		{1, 1, true, 0xb1441d254bd86cd7},
		{0, 0, false, 0xa706dd2f4d197e6f},
	}
	for _, tt := range tests {
		if got := Seed(tt.base, key(tt.client, tt.up)); got != tt.want {
			t.Errorf("Seed(%d, %d, %v) = %#x, want %#x", tt.base, tt.client, tt.up, got, tt.want)
		}
	}
}

// TestSeedDistinct: for one base, every client and direction gets its own
// seed, and so does every base for one client and direction.
func TestSeedDistinct(t *testing.T) {
	for _, base := range []uint64{0, 1, 42, 1<<64 - 1} {
		seen := map[uint64]bool{}
		for c := range 10_000 {
			for _, up := range []bool{false, true} {
				s := Seed(base, key(c, up))
				if seen[s] {
					t.Fatalf("base %d: Seed(%d, %v) = %#x repeats", base, c, up, s)
				}
				seen[s] = true
			}
		}
	}
	seen := map[uint64]bool{}
	for base := range uint64(10_000) {
		s := Seed(base, key(3, true))
		if seen[s] {
			t.Fatalf("Seed(%d, 3, true) = %#x repeats", base, s)
		}
		seen[s] = true
	}
}

// key is the word rtypeproxy names a client's link by: client<<1, and 1
// for the direction to the server.
func key(client int, up bool) uint64 {
	k := uint64(client) << 1
	if up {
		k |= 1
	}
	return k
}
