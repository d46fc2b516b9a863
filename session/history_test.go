package session

import "testing"

// §5.1: an ack resolves only what no earlier ack covered: the packets a
// new highest ack adds to its window, the bits a repeated one adds, and,
// for an ack below the highest, everything it shows (each packet is then
// checked against its slot).
func TestHistoryFresh(t *testing.T) {
	tests := []struct {
		name                string
		top, topBits        uint32
		ack, bits           uint32
		fresh               uint32
		newest              bool
		wantTop, wantTopBit uint32
	}{
		{"first ack", 0, 0, 5, 0b1111, 0b1111, true, 5, 0b1111},
		{"next in order, all acked", 5, 0b1111, 6, 0b11111, 0, true, 6, 0b11111},
		// 8 over 5: 5 and 2 to 4 were covered (bits 2 to 5); 6 and 1 are new.
		{"a jump of 3", 5, 0b0111, 8, 0b01011110, 0b01000010, true, 8, 0b01011110},
		{"the same ack with a bit more", 8, 0b0001, 8, 0b0011, 0b0010, false, 8, 0b0011},
		{"an older ack is walked whole", 8, 0b0011, 6, 0b0101, 0b0101, true, 8, 0b0011},
		{"a jump past the window covers nothing", 5, ^uint32(0), 40, 0b1, 0b1, true, 40, 0b1},
		{"a jump of exactly 32", 8, 0, 40, 1 << 31, 0, true, 40, 1 << 31},
	}
	for _, tt := range tests {
		r := history{top: tt.top, topBits: tt.topBits}
		fresh, newest := r.fresh(tt.ack, tt.bits)
		if fresh != tt.fresh || newest != tt.newest || r.top != tt.wantTop || r.topBits != tt.wantTopBit {
			t.Errorf("%s: fresh %032b newest %t top %d bits %b; want %032b %t %d %b", tt.name,
				fresh, newest, r.top, r.topBits, tt.fresh, tt.newest, tt.wantTop, tt.wantTopBit)
		}
	}
}
