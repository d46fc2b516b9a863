package main

import "testing"

// §5.1: one header's ack and ackBits cover the ack and the 32 sequences
// below it, no more: a clear bit is a sequence the peer lacks, and an ack
// of 0 says nothing.
func TestStatsAckedBy(t *testing.T) {
	tests := []struct {
		name                  string
		sent                  uint32 // sequences 1 to sent went out
		ack, bits             uint32
		wantCovered, wantLost int
	}{
		{"ack 120, all 32 bits", 120, 120, 0xFFFFFFFF, 33, 0},
		{"ack 120, bit 0 clear: 119 lost", 120, 120, 0xFFFFFFFE, 33, 1},
		{"ack 120, bit 31 clear: 88 lost", 120, 120, 0x7FFFFFFF, 33, 1},
		{"ack 1: only itself", 1, 1, 0, 1, 0},
		{"ack 3, fewer than 32 below", 3, 3, 0b01, 3, 1},
		{"ack 0: nothing", 5, 0, 0xFFFFFFFF, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d dirStats
			for seq := uint32(1); seq <= tt.sent; seq++ {
				d.send(seq)
			}
			d.ackedBy(tt.ack, tt.bits)
			if covered, lost := d.loss(); covered != tt.wantCovered || lost != tt.wantLost {
				t.Errorf("covered %d, lost %d; want %d, %d", covered, lost, tt.wantCovered, tt.wantLost)
			}
		})
	}
}
