package session

import (
	"fmt"
	"testing"
)

// §5.2: the loss a receiver counts comes from sequences that left its
// window unreceived. Nothing is counted before the first packet, whatever
// its sequence, and one jump of the highest sequence counts at most the 33
// sequences of a window, so that a single packet from a peer that numbers
// oddly cannot ruin the statistics.
func TestReceiveWindow_5_2_LossPerJumpBounded(t *testing.T) {
	tests := []struct {
		seqs []uint32
		lost uint64
	}{
		{[]uint32{1}, 0},
		{[]uint32{0xFFFFFF00}, 0},
		{[]uint32{40}, 0},
		{[]uint32{1, 35}, 1},
		{[]uint32{1, 34}, 0},
		{[]uint32{1, 100}, 33},
		{[]uint32{1, 0xFFFFFF00}, 33},
		{[]uint32{0xFFFFFF00, 0xFFFFFF01}, 0},
		{[]uint32{1, 3, 0xFFFF0000, 0xFFFFFF00}, 66},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.seqs), func(t *testing.T) {
			var w receiveWindow
			for _, s := range tt.seqs {
				w.receive(s)
			}
			if w.lost != tt.lost {
				t.Errorf("lost %d, want %d", w.lost, tt.lost)
			}
		})
	}
}
