package main

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

// TestHostile feeds each stage datagrams of random bytes, Hellos and
// packets with plausible headers and random messages, from 80 addresses:
// nothing panics, the table stays bounded and a client is still welcomed.
// The hostile addresses are on 127.0.0.2, so that the welcomed client's
// ephemeral port on 127.0.0.1 can never be one of them.
func TestHostile(t *testing.T) {
	for stage := stageHandshake; stage <= stageShip; stage++ {
		s, addr := start(t, config{stage: stage})
		r := rand.New(rand.NewPCG(1, uint64(stage)))
		types := []uint16{0, 2, 3, 4, 0x13, 0x50, 0x83, 0x86}
		for range 20000 {
			from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 2}), uint16(40000+r.IntN(80)))
			var b []byte
			switch r.IntN(4) {
			case 0:
				b = make([]byte, r.IntN(rtype.MaxDatagramSize+8))
				for i := range b {
					b[i] = byte(r.Uint32())
				}
			case 1:
				b = rtype.AppendHello(nil)
			default:
				b = binary.BigEndian.AppendUint32(nil, uint32(1+r.IntN(200)))
				b = binary.BigEndian.AppendUint32(b, uint32(r.IntN(64)))
				b = append(b, make([]byte, 8)...)
				for range r.IntN(6) {
					size := r.IntN(12)
					b = binary.BigEndian.AppendUint16(b, types[r.IntN(len(types))])
					b = binary.BigEndian.AppendUint16(b, uint16(size+r.IntN(2)-r.IntN(2)))
					for range size {
						b = append(b, byte(r.IntN(3))) // small values: plausible ids, reasons, bits
					}
				}
			}
			s.receive(b, from)
		}
		s.mu.Lock()
		n := len(s.conns)
		s.mu.Unlock()
		if n > maxConns {
			t.Errorf("stage %d: %d connections", stage, n)
		}
		dial(t, addr).welcome()
	}
}
