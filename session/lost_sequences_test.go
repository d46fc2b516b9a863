package session

import (
	"math/rand/v2"
	"testing"
)

// lostSequences yields exactly the sequences leftUnreceived counts, capped
// as receive caps them, each unreceived and leaving the §5.2 window.
func TestLostSequences_5_2_AsCounted(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	for range 100000 {
		first := 1 + rng.Uint32N(100)
		ack := first + rng.Uint32N(100)
		bits := rng.Uint32()
		next := ack + 1 + rng.Uint32N(80)
		n := min(leftUnreceived(ack, bits, next, first), ackWindow+1)
		var got []uint32
		lostSequences(ack, bits, next, first, n, func(s uint32) { got = append(got, s) })
		if uint64(len(got)) != n {
			t.Fatalf("ack %d bits %#x next %d first %d: %d yielded %v, %d counted", ack, bits, next, first, len(got), got, n)
		}
		for _, s := range got {
			received := s == ack || s < ack && ack-1-s < ackWindow && bits&(1<<(ack-1-s)) != 0
			if s < first || next-s <= ackWindow || received || ack > ackWindow && s < ack-ackWindow {
				t.Fatalf("ack %d bits %#x next %d first %d: %d yielded, not one leaving the window unreceived", ack, bits, next, first, s)
			}
		}
	}
}
