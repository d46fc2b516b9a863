package planted

// windowSize is the highest sequence received and the 32 before it (§5.2).
const windowSize = 33

// class is what §5.2 makes of a packet's sequence.
type class uint8

const (
	classNew class = iota
	classOutOfOrder
	classDuplicate
	classTooOld
)

// accepted reports whether a packet of this class is processed (§5.2).
func (c class) accepted() bool { return c == classNew || c == classOutOfOrder }

// window is one side's record of the peer's sequences (§5.2): seen[k]
// says whether highest−k was received.
type window struct {
	any     bool
	highest uint32
	seen    [windowSize]bool
}

// classify tells what §5.2 makes of seq, recording nothing: a packet is
// recorded only once its framing is found valid (§5.3).
//
// With wrapBug, "too old" is ruled out in unsigned arithmetic, guarding
// the subtraction as a C++ author would, while "behind" is the signed
// difference: a sequence 2³¹ or more ahead, or one wrapped below 0 while
// highest is under 33, is behind and not too old, and its distance
// indexes seen out of range.
func (w *window) classify(seq uint32, wrapBug bool) class {
	if !w.any {
		return classNew
	}
	d := int32(seq - w.highest)
	switch {
	case d > 0:
		return classNew
	case d == 0:
		return classDuplicate
	case wrapBug && w.highest > windowSize-1 && seq < w.highest-(windowSize-1):
		return classTooOld
	case !wrapBug && d < -(windowSize-1):
		return classTooOld
	}
	if w.seen[-d] {
		return classDuplicate
	}
	return classOutOfOrder
}

// record marks seq received, a sequence classify accepted.
func (w *window) record(seq uint32) {
	d := int32(seq - w.highest)
	if w.any && d < 0 {
		w.seen[-d] = true
		return
	}
	w.shift(d)
	w.any, w.highest, w.seen[0] = true, seq, true
}

// shift moves the window d sequences up, for a new highest.
func (w *window) shift(d int32) {
	if !w.any || d >= windowSize {
		w.seen = [windowSize]bool{}
		return
	}
	for k := windowSize - 1; k >= 0; k-- {
		w.seen[k] = k >= int(d) && w.seen[k-int(d)]
	}
}

// acks returns a packet header's ack and ackBits (§5.1): the highest
// sequence received, 0 if none, and bit i for highest−1−i.
func (w *window) acks() (ack, bits uint32) {
	if !w.any {
		return 0, 0
	}
	for i := range windowSize - 1 {
		if w.seen[i+1] {
			bits |= 1 << i
		}
	}
	return w.highest, bits
}
