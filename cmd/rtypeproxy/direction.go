package main

// direction is which way a datagram goes.
type direction uint8

const (
	up   direction = iota // client to server
	down                  // server to client
)

// String is the direction as the totals name it: "up" or "down".
func (d direction) String() string {
	if d == up {
		return "up"
	}
	return "down"
}

// linkKey names client n's link in direction d for netem.Seed: n<<1, and 1
// for the way to the server, so that a -seed repeats across versions.
func linkKey(n int, d direction) uint64 {
	k := uint64(n) << 1
	if d == up {
		k |= 1
	}
	return k
}
