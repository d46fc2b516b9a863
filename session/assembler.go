package session

import "github.com/rtypeproto/rtype"

// assembler builds the one packet a side is about to send (§5.1, §5.3).
type assembler struct {
	bld  rtype.Builder
	open bool
	// snapshot is set once the packet carries a Snapshot, for the
	// server's SnapshotSizes.
	snapshot bool
}

// begin starts a packet with header h.
func (a *assembler) begin(h rtype.PacketHeader) {
	_ = a.bld.Reset(h)
	a.open, a.snapshot = true, false
}

// finish closes the packet and returns its bytes, valid until next begin.
func (a *assembler) finish() []byte {
	a.open = false
	return a.bld.Bytes()
}

// discard drops the packet being built, unsent.
func (a *assembler) discard() { a.open = false }

// packetEnd numbers and begins each packet, and sends it when full or done.
type packetEnd interface {
	begin()
	flush()
}

// put adds m to the open packet, beginning one if none, sending it first if
// m does not fit: no datagram exceeds 548 bytes (§2.2).
func put[E packetEnd, M rtype.Message](e E, a *assembler, m M) {
	if a.open && m.Len() > a.bld.Available() {
		e.flush()
	}
	if !a.open {
		e.begin()
	}
	_ = rtype.Add(&a.bld, m)
}
