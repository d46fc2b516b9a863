package planted

import "fmt"

// ClientBug selects the client's planted bug.
type ClientBug uint8

// The client's bugs, each reached by a datagram only a fuzzer playing the
// server sends.
const (
	// ClientNone: a careful client, no bug.
	ClientNone ClientBug = iota
	// SnapshotCount: a Snapshot's entityCount is trusted (§8.1, §12): the
	// states are read, count of them, into an array of 47, and count 48
	// or more writes out of range.
	SnapshotCount
	// Archetype: CreateEntity's entityType (§8.2, §9.3) picks a sprite
	// through a table whose miss, -1, indexes the sprite array.
	Archetype

	numClientBugs
)

var clientBugNames = [numClientBugs]string{"none", "snapshot-count", "archetype"}

// String returns the bug's name, as ParseClientBug reads it.
func (b ClientBug) String() string {
	if b < numClientBugs {
		return clientBugNames[b]
	}
	return fmt.Sprintf("ClientBug(%d)", uint8(b))
}

// ClientBugs returns every client bug but ClientNone.
func ClientBugs() []ClientBug {
	var bs []ClientBug
	for b := ClientNone + 1; b < numClientBugs; b++ {
		bs = append(bs, b)
	}
	return bs
}

// ParseClientBug returns the client bug named name.
func ParseClientBug(name string) (ClientBug, error) {
	for b := range numClientBugs {
		if clientBugNames[b] == name {
			return b, nil
		}
	}
	return ClientNone, fmt.Errorf("planted: no client bug %q (want one of %v)", name, clientBugNames)
}
