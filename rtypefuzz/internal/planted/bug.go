package planted

import "fmt"

// Bug selects the server's planted bug.
type Bug uint8

// The server's bugs. Each is reached by one kind of datagram only a
// fuzzer sends, never by valid traffic.
const (
	// None: a careful server, no bug.
	None Bug = iota
	// TrustedLength: a message's size is checked against 548 (§2.2), not
	// against the bytes left in the datagram (§5.3, §12): a size past the
	// datagram's end slices out of range.
	TrustedLength
	// UnboundedCount: a packet's messages go into a fixed array of 8,
	// message i at index i, unbounded (§12): a packet of 9 messages or
	// more writes out of range.
	UnboundedCount
	// IDZero: QueryEntity (§7.4) checks only that the id was allocated
	// and not destroyed, then dereferences the map's entry: id 0, never
	// allocated (§8.2), is a nil dereference.
	IDZero
	// WrapAround: the §5.2 window takes a packet as behind when
	// int32(seq - highest) is negative and rules out "too old" in
	// unsigned arithmetic, guarded against underflow: a sequence that is
	// more than 32 behind by the signed difference but not below the
	// highest as a number passes, and its distance indexes the window of
	// 33 out of range. Such is a sequence 2³¹ or more ahead, or, while the
	// highest is under 33, one that wrapped below 0.
	WrapAround
	// Hang: a Ping whose timestamp is 0xFFFFFFFF (§7.2) is taken for an
	// internal marker and waits for a signal nobody sends: the server
	// stops reading and answering.
	Hang
	// DisconnectReason: the server keeps the share of each reason of
	// §7.3 among the departures, in a table of reasons 0 to 4, and
	// divides by the departures of the Disconnect's own reason: a reason
	// over 4, which the table has not, counts none, and the division is
	// by zero.
	DisconnectReason

	numBugs
)

var bugNames = [numBugs]string{"none", "trusted-length", "unbounded-count", "id-zero", "wrap-around", "hang", "disconnect-reason"}

// String returns the bug's name, as ParseBug reads it.
func (b Bug) String() string {
	if b < numBugs {
		return bugNames[b]
	}
	return fmt.Sprintf("Bug(%d)", uint8(b))
}

// Bugs returns every server bug but None.
func Bugs() []Bug {
	var bs []Bug
	for b := None + 1; b < numBugs; b++ {
		bs = append(bs, b)
	}
	return bs
}

// ParseBug returns the bug named name.
func ParseBug(name string) (Bug, error) {
	for b := range numBugs {
		if bugNames[b] == name {
			return b, nil
		}
	}
	return None, fmt.Errorf("planted: no server bug %q (want one of %v)", name, bugNames)
}
