package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// -stats counts each drop under its stable key, never under an error's
// text: the library's sentinels, the §5.4 connection check, a datagram the
// capture holds only part of (a partialError, whatever its text), and any other error as "other". A message of
// an unknown type, type 0 included, is ignored by a receiver (§6): it is
// counted among the messages, not the drops.
func TestStatsDropKeys(t *testing.T) {
	header := []byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}
	msg := func(typ, size byte, payload ...byte) []byte {
		return append(append([]byte(nil), header...), append([]byte{0, typ, 0, size}, payload...)...)
	}
	tests := []struct {
		name         string
		d            wiredump.Decoded
		wantMessages map[string]int
		wantDrops    map[string]int
	}{
		{"bad magic", wiredump.Decode(wiredump.Handshake, []byte("RTYX\x01\x01")),
			map[string]int{}, map[string]int{"bad-magic": 1}},
		{"destroy reason", wiredump.Decode(wiredump.Packet, msg(0x85, 9, 0, 0, 0, 1, 0, 0, 0, 1, 9)),
			map[string]int{"DestroyEntity": 1}, map[string]int{"destroy-reason": 1}},
		{"type 0 ignored", wiredump.Decode(wiredump.Packet, msg(0, 1, 0xaa)),
			map[string]int{"unknown": 1}, map[string]int{}},
		{"connection id differs", wiredump.Decoded{Kind: wiredump.Packet, Err: wiredump.ErrConnectionIDDiffers},
			map[string]int{}, map[string]int{"connection-id-differs": 1}},
		{"cut by the capture", wiredump.Decoded{Kind: wiredump.Packet, Err: &partialError{captured: 10, size: 20}},
			map[string]int{}, map[string]int{"not-whole-datagram": 1}},
		{"IPv4 fragment", wiredump.Decoded{Kind: wiredump.Packet, Err: &partialError{size: 20, fragment: true}},
			map[string]int{}, map[string]int{"not-whole-datagram": 1}},
		{"duplicate sequence", wiredump.Decoded{Kind: wiredump.Packet, Err: wiredump.ErrDuplicateSequence},
			map[string]int{}, map[string]int{"duplicate-sequence": 1}},
		{"an error without a key", wiredump.Decoded{Kind: wiredump.Packet, Err: rtype.ErrNoRoom},
			map[string]int{}, map[string]int{"other": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStats("other addresses")
			c := s.conn("10.0.0.2:1")
			s.add(c, 0, true, &tt.d)
			if diff := cmp.Diff(tt.wantMessages, c.messages); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantDrops, c.drops); diff != "" {
				t.Errorf("drops (-want +got):\n%s", diff)
			}
		})
	}
}
