package session

import (
	"net/netip"
	"time"
)

// sampleRTT takes a round-trip sample to the peer at to: folded into srtt
// with weight 1/8, as TCP does, the first as is; counted in the RTT
// histogram in seconds unless negative, from a clock that went back; and
// traced. Clients sample Pongs (§7.2), servers acks (§5.1).
func (e *endpoint) sampleRTT(to netip.AddrPort, srtt *time.Duration, d time.Duration) {
	if *srtt == 0 {
		*srtt = d
	} else {
		*srtt += (d - *srtt) / 8
	}
	if d >= 0 {
		e.stats.RTT.Observe(d.Seconds())
	}
	if e.trace.on() {
		e.trace.rtt(to, d, *srtt)
	}
}
