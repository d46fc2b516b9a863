package conformance

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// clientPacketCases are the §5 rules as a client keeps them.
var clientPacketCases = []Case{
	{ID: "5.2/1", Level: Must, Title: "the first packet sent on a connection has sequence 1, and every following packet increases it by 1", run: func(t *T) {
		r := t.startClient()
		r.welcome(t.harness.id())
		var seqs []uint32
		r.poll(r.t.within(time.Second), func(m cmsg) bool {
			if len(seqs) == 0 || seqs[len(seqs)-1] != m.hdr.Sequence {
				seqs = append(seqs, m.hdr.Sequence)
			}
			return len(seqs) == 10
		})
		if len(seqs) == 0 {
			t.Skipf("welcomed as connection %d, the client sent no packet within 1s", r.id)
		}
		for i, s := range seqs {
			if s != uint32(i+1) {
				t.Failf("packet %d after the Welcome had sequence %d, want %d (sequences seen: %v)", i+1, s, i+1, seqs)
			}
		}
		_ = rtype.MaxDatagramSize
	}},
}
