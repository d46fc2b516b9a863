package rtype

import (
	"fmt"
	"math"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// SeqWindow is checked against seqModel, the table of §5.2 with a perfect
// memory: the set of every sequence received and the highest. The window
// remembers only 32 sequences below the highest, which is all the table
// and the ack fields of §5.1 ever need, so the two must agree on every
// classification and every ack they give.
//
// The table leaves one overlap open: a sequence more than 32 below the
// highest that was once received is both "already seen" and "lower by more
// than 32". The model calls it Too old, as a 32-bit window must; both
// classes are dropped.

// seqModel is the receiver's state of §5.2.
type seqModel struct {
	any      bool
	highest  uint32
	received map[uint32]bool
	// last is the class the model gave the most recent Receive.
	last SeqClass
}

func (m seqModel) classify(seq uint32) SeqClass {
	switch {
	case !m.any, seq > m.highest:
		return SeqNew
	case seq == m.highest:
		return SeqDuplicate
	case m.highest-seq > 32:
		return SeqTooOld
	case m.received[seq]:
		return SeqDuplicate
	}
	return SeqOutOfOrder
}

// receive returns the state after seq arrives; the receiver is unchanged.
func (m seqModel) receive(seq uint32) seqModel {
	next := seqModel{any: m.any, highest: m.highest, received: make(map[uint32]bool, len(m.received)+1)}
	for s := range m.received {
		next.received[s] = true
	}
	next.last = m.classify(seq)
	switch next.last {
	case SeqNew:
		next.any, next.highest = true, seq
		next.received[seq] = true
	case SeqOutOfOrder:
		next.received[seq] = true
	}
	return next
}

// ack is §5.1: the highest received, and bit i set when sequence
// ack − 1 − i was received.
func (m seqModel) ack() (ack, bits uint32) {
	if !m.any {
		return 0, 0
	}
	for i := range uint32(32) {
		if m.highest >= i+1 && m.received[m.highest-1-i] {
			bits |= 1 << i
		}
	}
	return m.highest, bits
}

// remembered is what Received must report: received, and no more than 32
// below the highest.
func (m seqModel) remembered(seq uint32) bool {
	return m.any && seq <= m.highest && m.highest-seq <= 32 && m.received[seq]
}

func (m seqModel) String() string {
	ack, bits := m.ack()
	return fmt.Sprintf("{highest %d, %d received, ack %d/%032b}", m.highest, len(m.received), ack, bits)
}

// seqResult is what a command saw: the class Receive returned and the
// window right after, a value that can be queried without changing the
// window under test.
type seqResult struct {
	class  SeqClass
	window SeqWindow
}

// seqProbes are the sequences whose Received and Classify answers are
// compared after each command: the whole window and just past both ends.
func seqProbes(m seqModel) []uint32 {
	out := []uint32{0, 1, math.MaxUint32}
	for d := uint32(0); d <= 34; d++ {
		out = append(out, m.highest-d)
	}
	return append(out, m.highest+1, m.highest+2)
}

// receiveCmd is one packet arriving with sequence Seq.
type receiveCmd struct{ Seq uint32 }

func (c receiveCmd) Run(sut commands.SystemUnderTest) commands.Result {
	w := sut.(*SeqWindow)
	class := w.Receive(c.Seq)
	return seqResult{class: class, window: *w}
}

func (c receiveCmd) NextState(s commands.State) commands.State { return s.(seqModel).receive(c.Seq) }

func (receiveCmd) PreCondition(commands.State) bool { return true }

func (c receiveCmd) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	m, res := s.(seqModel), r.(seqResult)
	if res.class != m.last {
		return seqFailed("Receive(%d) = %v, the table of §5.2 says %v", c.Seq, res.class, m.last)
	}
	return compareWindow(m, res.window)
}

func (c receiveCmd) String() string { return fmt.Sprintf("Receive(%d)", c.Seq) }

// compareWindow checks every answer of the window against the model.
func compareWindow(m seqModel, w SeqWindow) *gopter.PropResult {
	gotAck, gotBits := w.Ack()
	wantAck, wantBits := m.ack()
	if gotAck != wantAck || gotBits != wantBits {
		return seqFailed("Ack() = %d, %032b; want %d, %032b", gotAck, gotBits, wantAck, wantBits)
	}
	for _, seq := range seqProbes(m) {
		if got, want := w.Received(seq), m.remembered(seq); got != want {
			return seqFailed("Received(%d) = %v, want %v in %v", seq, got, want, m)
		}
		if got, want := w.Classify(seq), m.classify(seq); got != want {
			return seqFailed("Classify(%d) = %v, want %v in %v", seq, got, want, m)
		}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

func seqFailed(format string, args ...any) *gopter.PropResult {
	return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{fmt.Sprintf(format, args...)}}
}

// arbSeq draws the next sequence to arrive, given the receiver's state:
// mostly near the highest, also far jumps ahead, jumps of exactly 32 and
// 33, duplicates, very old ones and the ends of the 32-bit range.
func arbSeq(m seqModel) gopter.Gen {
	h := m.highest
	gens := []gen.WeightedGen{
		{Weight: 10, Gen: gen.Int64Range(-40, 40).Map(func(d int64) uint32 { return h + uint32(d) })},
		{Weight: 4, Gen: gen.UInt32Range(1, 3).Map(func(d uint32) uint32 { return h + d })},
		{Weight: 2, Gen: gen.UInt32Range(33, 100000).Map(func(d uint32) uint32 { return h + d })},
		{Weight: 2, Gen: gen.OneConstOf(h+32, h+33, h-32, h-33, h+31, h-31)},
		{Weight: 1, Gen: gen.UInt32Range(33, math.MaxUint32/2).Map(func(d uint32) uint32 { return h - d })},
		{Weight: 1, Gen: gen.OneConstOf(uint32(0), uint32(1), uint32(math.MaxUint32), uint32(math.MaxUint32-1))},
		{Weight: 1, Gen: gen.UInt32()},
	}
	if len(m.received) > 0 {
		seen := make([]uint32, 0, len(m.received))
		for s := range m.received {
			seen = append(seen, s)
		}
		gens = append(gens, gen.WeightedGen{Weight: 4, Gen: gen.IntRange(0, len(seen)-1).Map(func(i int) uint32 { return seen[i] })})
	}
	return gen.Weighted(gens)
}

func TestSpec5_2_SeqWindowModel(t *testing.T) {
	cmds := &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(commands.State) commands.SystemUnderTest { return new(SeqWindow) },
		InitialStateGen:        gen.Const(seqModel{received: map[uint32]bool{}}),
		GenCommandFunc: func(s commands.State) gopter.Gen {
			return arbSeq(s.(seqModel)).Map(func(seq uint32) commands.Command { return receiveCmd{seq} })
		},
	}
	params := propertyParameters(t, 300)
	props := gopter.NewProperties(params)
	props.Property("SeqWindow classifies and acks as the §5.2 table", commands.Prop(cmds))

	// Sequences that start near the top of the range, so that jumps cross
	// it and plain unsigned comparison shows.
	high := &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(commands.State) commands.SystemUnderTest {
			w := new(SeqWindow)
			w.Receive(math.MaxUint32 - 40)
			return w
		},
		InitialStateGen: gen.Const(seqModel{received: map[uint32]bool{}}.receive(math.MaxUint32 - 40)),
		GenCommandFunc:  cmds.GenCommandFunc,
	}
	props.Property("near the top of the 32-bit range", commands.Prop(high))
	props.TestingRun(t)
}

// TestSpec5_1_SeqWindowAckMask checks exact ack and ackBits values: bit i set
// means sequence ack − 1 − i was received (§5.1).
func TestSpec5_1_SeqWindowAckMask(t *testing.T) {
	seqRange := func(from, to uint32) []uint32 {
		var out []uint32
		for s := from; s <= to; s++ {
			out = append(out, s)
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		received []uint32
		ack      uint32
		bits     uint32
	}{
		{"nothing received", nil, 0, 0},
		{"first packet", []uint32{1}, 1, 0},
		{"first packet not 1", []uint32{7}, 7, 0},
		{"1 to 5 in order", seqRange(1, 5), 5, 0b1111},
		{"1 and 3", []uint32{1, 3}, 3, 0b10},
		{"3 then 1", []uint32{3, 1}, 3, 0b10},
		{"2 missing of 1 to 4", []uint32{1, 3, 4}, 4, 0b101},
		{"§11.3: 120 and the 32 before it", seqRange(88, 120), 120, 0xFFFFFFFF},
		{"§11.3 in reverse order", reversedSeqs(seqRange(88, 120)), 120, 0xFFFFFFFF},
		{"only the 32nd below", []uint32{88, 120}, 120, 1 << 31},
		{"the 33rd below is not in the mask", []uint32{87, 120}, 120, 0},
		{"jump by exactly 32 keeps the old highest as bit 31", []uint32{100, 132}, 132, 1 << 31},
		{"jump by exactly 32 drops the bits below the old highest", []uint32{99, 100, 132}, 132, 1 << 31},
		{"jump by 33 forgets every older bit", append(seqRange(68, 100), 133), 133, 0},
		{"jump by 33 then the 32nd below arrives", []uint32{100, 133, 101}, 133, 1 << 31},
		{"jump by 31", []uint32{99, 100, 131}, 131, 1<<30 | 1<<31},
		{"duplicates change nothing", []uint32{5, 5, 4, 4, 5}, 5, 0b1},
		{"too old changes nothing", []uint32{100, 67, 50}, 100, 0},
		{"top of the range", []uint32{math.MaxUint32 - 1, math.MaxUint32}, math.MaxUint32, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w SeqWindow
			for _, s := range tc.received {
				w.Receive(s)
			}
			if ack, bits := w.Ack(); ack != tc.ack || bits != tc.bits {
				t.Errorf("after %v: Ack() = %d, %032b; want %d, %032b", tc.received, ack, bits, tc.ack, tc.bits)
			}
		})
	}
}

func reversedSeqs(s []uint32) []uint32 {
	out := make([]uint32, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// TestSpec5_2_SeqWindowJumps walks a window through jumps of exactly 32 and 33
// and checks the class of every sequence around the new highest.
func TestSpec5_2_SeqWindowJumps(t *testing.T) {
	for _, tc := range []struct {
		jump uint32
		// class of old highest, and of the one just below it, after the jump
		oldHighest, belowOld SeqClass
	}{
		{31, SeqDuplicate, SeqOutOfOrder},
		{32, SeqDuplicate, SeqTooOld},
		{33, SeqTooOld, SeqTooOld},
	} {
		t.Run(fmt.Sprint("jump ", tc.jump), func(t *testing.T) {
			var w SeqWindow
			const start = 1000
			if c := w.Receive(start); c != SeqNew {
				t.Fatalf("first Receive(%d) = %v, want New", start, c)
			}
			if c := w.Receive(start + tc.jump); c != SeqNew {
				t.Fatalf("Receive(%d) = %v, want New", start+tc.jump, c)
			}
			if c := w.Receive(start); c != tc.oldHighest {
				t.Errorf("old highest %d after a jump of %d: %v, want %v", start, tc.jump, c, tc.oldHighest)
			}
			if c := w.Receive(start - 1); c != tc.belowOld {
				t.Errorf("%d after a jump of %d: %v, want %v", start-1, tc.jump, c, tc.belowOld)
			}
			if c := w.Receive(start + 1); c != SeqOutOfOrder {
				t.Errorf("%d after a jump of %d: %v, want OutOfOrder", start+1, tc.jump, c)
			}
			if c := w.Receive(start + tc.jump); c != SeqDuplicate {
				t.Errorf("the highest again: %v, want Duplicate", c)
			}
		})
	}
}

// TestSpec7_1_SequenceNewer: inputSequence is newer by signed 32-bit
// difference, so it may wrap around.
func TestSpec7_1_SequenceNewer(t *testing.T) {
	props := gopter.NewProperties(propertyParameters(t, 2000))
	props.Property("a + d is newer than a exactly when 0 < d < 2^31", prop.ForAll(func(a, d uint32) bool {
		want := d != 0 && d < 1<<31
		return SequenceNewer(a+d, a) == want && (d == 0 || d == 1<<31 || SequenceNewer(a, a+d) == !want)
	}, gen.UInt32(), gen.OneGenOf(gen.UInt32(), gen.UInt32Range(0, 3), gen.UInt32Range(1<<31-2, 1<<31+2), gen.UInt32Range(math.MaxUint32-2, math.MaxUint32))))
	props.TestingRun(t)
	for _, tc := range []struct {
		a, b uint32
		want bool
	}{
		{2, 1, true}, {1, 1, false}, {1, 2, false},
		{0, math.MaxUint32, true}, {math.MaxUint32, 0, false},
		{1 << 31, 0, false}, {0, 1 << 31, false}, {1<<31 - 1, 0, true},
	} {
		if got := SequenceNewer(tc.a, tc.b); got != tc.want {
			t.Errorf("SequenceNewer(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSpec5_1_Acked checks which sequences a header's ack and ackBits show
// received: ack itself, and ack − 1 − i for every bit i set (§5.1), with
// the header of §11.3 (ack 120, all 32 bits set) among the vectors.
func TestSpec5_1_Acked(t *testing.T) {
	tests := []struct {
		seq, ack, bits uint32
		want           bool
	}{
		{120, 120, 0xFFFFFFFF, true},
		{119, 120, 0xFFFFFFFF, true},
		{88, 120, 0xFFFFFFFF, true},
		{87, 120, 0xFFFFFFFF, false}, // 33 below: no bit for it
		{121, 120, 0xFFFFFFFF, false},
		{120, 120, 0, true},
		{119, 120, 0, false},
		{119, 120, 1, true},  // bit 0: ack − 1
		{118, 120, 1, false}, // bit 1 clear
		{88, 120, 1 << 31, true},
		{1, 2, 1, true},
		{0, 0, 0xFFFFFFFF, false}, // ack 0: nothing received
		{5, 0, 0xFFFFFFFF, false},
	}
	for _, tt := range tests {
		if got := Acked(tt.seq, tt.ack, tt.bits); got != tt.want {
			t.Errorf("Acked(%d, %d, %#x) = %v, want %v", tt.seq, tt.ack, tt.bits, got, tt.want)
		}
	}
}
