package rtype

import "strconv"

// SeqClass is how a receiver classifies the sequence number of an incoming
// packet (§5.2).
type SeqClass uint8

// Sequence classes (§5.2). New and OutOfOrder packets are processed;
// Duplicate and TooOld packets must be dropped.
const (
	// SeqNew: the first packet received, or one above the highest received.
	SeqNew SeqClass = iota
	// SeqOutOfOrder: 1 to 32 below the highest received, not seen before.
	SeqOutOfOrder
	// SeqDuplicate: equal to the highest received, or already seen.
	SeqDuplicate
	// SeqTooOld: more than 32 below the highest received.
	SeqTooOld
)

// Accept reports whether a packet of this class is processed (§5.2).
func (c SeqClass) Accept() bool { return c == SeqNew || c == SeqOutOfOrder }

// String returns the §5.2 class: "New", "OutOfOrder", "Duplicate",
// "TooOld", or "SeqClass(n)".
func (c SeqClass) String() string {
	switch c {
	case SeqNew:
		return "New"
	case SeqOutOfOrder:
		return "OutOfOrder"
	case SeqDuplicate:
		return "Duplicate"
	case SeqTooOld:
		return "TooOld"
	}
	return "SeqClass(" + strconv.Itoa(int(c)) + ")"
}

// SeqWindow is the receive side of §5.2: the highest sequence received and
// which of the 32 sequences below it were received, which is exactly what
// ack and ackBits carry (§5.1). The zero value has received nothing. A
// SeqWindow is 12 bytes and holds no pointer; copy it to keep a snapshot.
//
// Sequences compare as plain unsigned numbers, as the table of §5.2 says:
// they start at 1 and would take years to wrap at game rates.
type SeqWindow struct {
	highest uint32
	// bits has bit i set when sequence highest − 1 − i was received.
	bits     uint32
	received bool
}

// Receive classifies seq (§5.2) and records it when it is New or
// OutOfOrder; Duplicate and TooOld leave the window as it was. A New
// sequence more than 32 above the highest forgets every older bit.
func (w *SeqWindow) Receive(seq uint32) SeqClass {
	switch {
	case !w.received:
		*w = SeqWindow{highest: seq, received: true}
		return SeqNew
	case seq > w.highest:
		d := seq - w.highest
		if d > 32 {
			w.bits = 0
		} else {
			// The old highest is now d − 1 below the new one.
			w.bits = w.bits<<d | 1<<(d-1)
		}
		w.highest = seq
		return SeqNew
	case seq == w.highest:
		return SeqDuplicate
	}
	d := w.highest - seq
	if d > 32 {
		return SeqTooOld
	}
	bit := uint32(1) << (d - 1)
	if w.bits&bit != 0 {
		return SeqDuplicate
	}
	w.bits |= bit
	return SeqOutOfOrder
}

// Classify returns what Receive would return for seq (§5.2), without
// recording it.
func (w *SeqWindow) Classify(seq uint32) SeqClass {
	c := *w
	return c.Receive(seq)
}

// Ack returns the ack and ackBits fields for the next packet sent (§5.1):
// the highest sequence received and the 32 below it, or (0, 0) before any
// packet.
func (w *SeqWindow) Ack() (ack, ackBits uint32) {
	return w.highest, w.bits
}

// Received reports whether seq was received, as far as the window
// remembers: the highest and the 32 below it (§5.1, §5.2).
func (w *SeqWindow) Received(seq uint32) bool {
	return w.received && (seq == w.highest || Acked(seq, w.highest, w.bits))
}

// Acked reports whether the ack and ackBits fields of a packet header show
// sequence seq received (§5.1): seq is ack itself, or one of the 32 below
// it whose bit, ack − 1 − seq, is set. An ack of 0 shows nothing.
func Acked(seq, ack, ackBits uint32) bool {
	switch {
	case ack == 0 || seq > ack:
		return false
	case seq == ack:
		return true
	}
	d := ack - seq
	return d <= 32 && ackBits&(1<<(d-1)) != 0
}

// SequenceNewer reports whether a is newer than b when both are counters
// that may wrap around: their signed 32-bit difference a − b is positive.
// §7.1 requires it for inputSequence.
func SequenceNewer(a, b uint32) bool {
	return int32(a-b) > 0
}
