package rtypefuzz

import (
	"testing"

	"github.com/rtypeproto/rtype"
)

// §5.2, §7.3: whatever sequences a session sent, one of its parting
// Disconnects is new to a receiver that compares sequences as plain
// numbers and to one that compares them wrapping, each having taken every
// sequence new to it; but after the last sequence there is, which the
// mutator sends with a Disconnect of its own.
func TestPartingDisconnectIsNew_5_2(t *testing.T) {
	for _, tc := range []struct {
		name string
		sent []uint32
	}{
		{"in order", []uint32{1, 2, 3}},
		{"2³¹ ahead", []uint32{1, 2, 3 + 1<<31}},
		{"0x7FFFFFFF", []uint32{1, 2, 0x7FFFFFFF}},
		{"33 behind the first", []uint32{1, 2, 0xFFFFFFE1}},
		{"byte-swapped, then 2³¹ ahead of the session", []uint32{1, 5, 0x06000000, 6 + 1<<31}},
		{"far behind late", []uint32{1, 900, 900 - 500}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &sess{welcomed: true}
			plain, wrap := tc.sent[0], tc.sent[0]
			for _, seq := range tc.sent {
				s.top = max(s.top, seq)
				if rtype.SequenceNewer(seq, s.newest) {
					s.newest = seq
				}
				plain = max(plain, seq)
				if rtype.SequenceNewer(seq, wrap) {
					wrap = seq
				}
			}
			s.ctx.Seq = tc.sent[1] // the session's valid chain
			var takenPlain, takenWrap bool
			for _, after := range partingAfter(s.ctx.Seq, s.top, s.newest) {
				takenPlain = takenPlain || after+1 > plain
				takenWrap = takenWrap || rtype.SequenceNewer(after+1, wrap)
			}
			if !takenPlain || !takenWrap {
				t.Errorf("parting after %v: new to a plain receiver %t, to a wrapping one %t",
					partingAfter(s.ctx.Seq, s.top, s.newest), takenPlain, takenWrap)
			}
		})
	}
}
