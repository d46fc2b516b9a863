package session

import (
	"strings"
	"testing"
)

// Every drop reason has its own kebab-case key, rtypedump's where it names
// the same rule, and a reason out of range is "other".
func TestDropReason_Key(t *testing.T) {
	seen := map[string]DropReason{}
	for r := range numDropReasons {
		k := r.Key()
		if k == "" || k == "other" || strings.ToLower(k) != k || strings.ContainsAny(k, " _") {
			t.Errorf("%v: key %q, want kebab-case", r, k)
		}
		if o, dup := seen[k]; dup {
			t.Errorf("%v and %v share the key %q", o, r, k)
		}
		seen[k] = r
	}
	for r, k := range map[DropReason]string{DropTooLarge: "datagram-too-large", DropDuplicate: "duplicate-sequence", DropTooOld: "sequence-too-old", numDropReasons: "other"} {
		if r.Key() != k {
			t.Errorf("%v: key %q, want %q", r, r.Key(), k)
		}
	}
}

// The reasons that drop a whole datagram are those of §12's "discarded
// without answer"; the others drop one message of a packet that is
// otherwise processed (§6), and a trace records no dropped datagram for
// them.
func TestDropReason_Datagram(t *testing.T) {
	messages := map[DropReason]bool{
		DropUnknownMessage: true, DropPayloadSize: true, DropReservedActions: true, DropStaleInput: true,
		DropZeroNetworkID: true, DropTooManyStates: true, DropDuplicateNetworkID: true, DropKnownEntity: true,
		DropEntityLimit: true, DropDestroyReason: true, DropUnmatchedPong: true,
	}
	for r := range numDropReasons + 1 {
		if want := r < numDropReasons && !messages[r]; r.Datagram() != want {
			t.Errorf("%v.Datagram() = %v, want %v", r, r.Datagram(), want)
		}
	}
}

func TestDrops(t *testing.T) {
	var d, o Drops
	if d.String() != "none" || d.Total() != 0 {
		t.Errorf("zero Drops: %q, total %d", d, d.Total())
	}
	d.add(DropDuplicate)
	o.add(DropDuplicate)
	o.add(DropUnmatchedPong)
	d.Add(&o)
	if got := d.String(); got != "duplicate-sequence=2 unmatched-pong=1" {
		t.Errorf("String() = %q", got)
	}
	if d.Count(DropDuplicate) != 2 || d.Count(DropUnmatchedPong) != 1 || d.Count(numDropReasons) != 0 || d.Total() != 3 {
		t.Errorf("counts %v, total %d", d, d.Total())
	}
	n := 0
	for r, v := range d.All() {
		if r != DropReason(n) || v != d.Count(r) {
			t.Errorf("All: %v=%d at %d", r, v, n)
		}
		n++
	}
	if n != int(numDropReasons) {
		t.Errorf("All yielded %d reasons, want %d", n, numDropReasons)
	}
}
