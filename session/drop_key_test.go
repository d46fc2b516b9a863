package session

import (
	"strings"
	"testing"
)

// Every drop reason has its own kebab-case key, rtypedump's where it names
// the same rule, and a reason out of range is "other".
func TestDropReason_Key(t *testing.T) {
	seen := map[string]DropReason{}
	for r := range NumDropReasons {
		k := r.Key()
		if k == "" || k == "other" || strings.ToLower(k) != k || strings.ContainsAny(k, " _") {
			t.Errorf("%v: key %q, want kebab-case", r, k)
		}
		if o, dup := seen[k]; dup {
			t.Errorf("%v and %v share the key %q", o, r, k)
		}
		seen[k] = r
	}
	for r, k := range map[DropReason]string{DropTooLarge: "datagram-too-large", DropDuplicate: "duplicate-sequence", DropTooOld: "sequence-too-old", NumDropReasons: "other"} {
		if r.Key() != k {
			t.Errorf("%v: key %q, want %q", r, r.Key(), k)
		}
	}
}
