package session

import (
	"log/slog"
	"time"

	"github.com/rtypeproto/rtype"
)

// DropLogEvery is how often a server's Log reports the datagrams and
// messages dropped, by rule, at most.
const DropLogEvery = 10 * time.Second

// opsLog writes a server's records for its operator: joins and leaves as
// they happen, drops summed over DropLogEvery, so that a flood of bad
// datagrams (§12) costs one record per rule per period, not one each.
type opsLog struct {
	log *slog.Logger // nil: nothing is logged
	// reported is the drop counters at the last report, at; at comes
	// first, read by every Tick, reported once a period.
	at       time.Time
	reported Drops
}

func (l *opsLog) joined(c *conn) {
	if l.log != nil {
		l.log.Info("player joined", "conn", c.id, "slot", c.slot, "addr", c.addr.String())
	}
}

func (l *opsLog) left(c *conn, why CloseReason, dr rtype.DisconnectReason) {
	if l.log == nil {
		return
	}
	if why == CloseDisconnect {
		l.log.Info("player left", "conn", c.id, "slot", c.slot, "addr", c.addr.String(), "close", why.String(), "reason", dr.String())
		return
	}
	l.log.Info("player left", "conn", c.id, "slot", c.slot, "addr", c.addr.String(), "close", why.String())
}

// drops reports what each rule dropped since the last report, once
// DropLogEvery has passed.
func (l *opsLog) drops(d *Drops, now time.Time) {
	switch {
	case l.log == nil:
		return
	case l.at.IsZero():
		l.at = now // the first period starts at the first Tick
		return
	case now.Sub(l.at) < DropLogEvery:
		return
	}
	for r, n := range d.All() {
		if was := l.reported.Count(r); n > was {
			l.log.Warn("dropped", "rule", r.Key(), "count", n-was, "period", DropLogEvery)
		}
	}
	l.reported, l.at = *d, now
}
