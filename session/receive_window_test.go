package session

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// lossModel is the loss §5.2 implies, counted the slow way: a sequence
// from the first one received on is lost once it is more than 32 below
// the highest received and was not received before, after which the
// window drops it as too old; one move of the highest counts at most 33.
func lossModel(seqs []uint32) (accepted, lost uint64) {
	got := map[uint32]bool{}
	var highest, first uint32
	for i, s := range seqs {
		if got[s] || (highest > s && highest-s > ackWindow) {
			continue
		}
		if i > 0 && s > highest {
			var n uint64
			for q := max(uint64(first), uint64(highest)+1-min(uint64(highest), ackWindow+1)); q+ackWindow < uint64(s); q++ {
				if q+ackWindow >= uint64(highest) && !got[uint32(q)] {
					n++
				}
				if n > ackWindow {
					break
				}
			}
			lost += min(n, ackWindow+1)
		}
		if i == 0 {
			first = s
		}
		got[s] = true
		accepted++
		highest = max(highest, s)
	}
	return accepted, lost
}

func run(seqs []uint32) receiveWindow {
	var w receiveWindow
	for _, s := range seqs {
		w.receive(s)
	}
	return w
}

func span(from, to uint32) []uint32 {
	var out []uint32
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

func without(seqs []uint32, gone ...uint32) []uint32 {
	var out []uint32
	for _, s := range seqs {
		keep := true
		for _, g := range gone {
			keep = keep && s != g
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// §5.2: the server packets a client never received are counted once they
// leave the window, and only then: a packet out of order is not lost, a
// duplicate is not received twice.
func TestReceiveWindow_5_2_CountsLoss(t *testing.T) {
	tests := []struct {
		name           string
		seqs           []uint32
		accepted, lost uint64
	}{
		{"nothing", nil, 0, 0},
		{"every packet", span(1, 100), 100, 0},
		{"a gap still inside the window", without(span(1, 40), 10), 39, 0},
		{"a gap 32 below the highest is not final", without(span(1, 42), 10), 41, 0},
		{"a gap 33 below the highest is lost", without(span(1, 43), 10), 42, 1},
		{"the gap arrives out of order", append(without(span(1, 40), 10), 10, 41, 42, 43, 44), 44, 0},
		{"too late: dropped, counted lost", append(without(span(1, 43), 10), 10), 42, 1},
		{"duplicates count once", append(span(1, 50), 50, 49, 20), 50, 0},
		{"first packet received is 3", span(3, 40), 38, 0},
		{"a jump past the whole window counts a window", []uint32{1, 2, 100}, 3, 33},
		{"a jump of exactly 33", []uint32{1, 34}, 2, 0},
		{"a jump of 34", []uint32{1, 35}, 2, 1},
		{"every other packet", []uint32{2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70}, 35, 18},
		{"a first sequence 0 is processed like any", []uint32{0, 1, 2, 36}, 4, 1},
	}
	for _, tt := range tests {
		w := run(tt.seqs)
		ma, ml := lossModel(tt.seqs)
		if w.accepted != tt.accepted || w.lost != tt.lost || ma != tt.accepted || ml != tt.lost {
			t.Errorf("%s: accepted %d, lost %d (model %d, %d); want %d, %d", tt.name, w.accepted, w.lost, ma, ml, tt.accepted, tt.lost)
		}
	}
}

// §5.2: on any stream of sequences — gaps, reordering, duplicates, jumps —
// the counts are those of the model.
func TestReceiveWindow_5_2_LossMatchesModel(t *testing.T) {
	params := gopter.DefaultTestParameters()
	params.MinSuccessfulTests = 500
	p := gopter.NewProperties(params)
	// Each step moves a little from the previous sequence: mostly forward,
	// sometimes back (reordering, duplicates), now and then far.
	steps := gen.SliceOf(gen.IntRange(-40, 80))
	p.Property("counts match the model", prop.ForAll(func(deltas []int) bool {
		var seqs []uint32
		cur := int64(1)
		for _, d := range deltas {
			cur = max(1, cur+int64(d))
			seqs = append(seqs, uint32(cur))
		}
		w := run(seqs)
		ma, ml := lossModel(seqs)
		return w.accepted == ma && w.lost == ml
	}, steps))
	p.TestingRun(t)
}

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
