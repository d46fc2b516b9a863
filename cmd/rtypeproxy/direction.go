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
