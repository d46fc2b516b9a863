package rtypetest

import (
	"encoding/binary"
	"errors"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype/netem"
)

// Errors of the networks' configuration.
var (
	// ErrAddrInUse: Listen or a Sim endpoint on an address already taken.
	ErrAddrInUse = errors.New("rtypetest: address already in use")
	// ErrInvalidAddr: an address that is not a valid IPv4 or IPv6 address
	// with a port.
	ErrInvalidAddr = errors.New("rtypetest: invalid address")
)

// A Tap sees each datagram a network carries as it is sent, at its send
// time and before the direction's model; returning false drops it,
// counted as DropTap. It runs on the sender's call, inside Sim.Advance for
// what endpoints send in answer, and must not call the network. The
// datagram is valid only during the call.
type Tap func(at time.Time, from, to netip.AddrPort, b []byte) (keep bool)

// pair is one direction between two addresses.
type pair struct{ from, to netip.AddrPort }

// LinkStats counts what one direction of a network carried.
type LinkStats struct {
	// Sent counts the datagrams written to the link.
	Sent uint64
	// Delivered counts the copies handed to the receiver, duplicates
	// included.
	Delivered uint64
	// dropped counts the datagrams the link did not deliver, by reason.
	dropped [numDropReasons]uint64
}

// Dropped returns the datagrams the link did not deliver for reason r.
func (s LinkStats) Dropped(r DropReason) uint64 {
	if r < numDropReasons {
		return s.dropped[r]
	}
	return 0
}

// DropReason says why a network did not deliver a datagram.
type DropReason uint8

// Why a datagram was not delivered.
const (
	// DropLoss: random or bursty loss (netem.Params Loss, Burst).
	DropLoss DropReason = iota
	// DropBlackout: inside a scheduled blackout (netem.Params Blackout).
	DropBlackout
	// DropQueue: the rate cap's queue was full (netem.Params Rate, Queue).
	DropQueue
	// DropPartition: the two addresses are partitioned.
	DropPartition
	// DropNoListener: nothing listens on the destination address.
	DropNoListener
	// DropFull: the receiver's queue or the datagrams in flight reached
	// their bound; memory stays bounded whatever is sent.
	DropFull
	// DropTap: the network's Tap returned false.
	DropTap

	// numDropReasons is the number of drop reasons: LinkStats' room.
	numDropReasons
)

var dropNames = [numDropReasons]string{"loss", "blackout", "queue", "partition", "no-listener", "full", "tap"}

// String names the reason.
func (r DropReason) String() string {
	if r < numDropReasons {
		return dropNames[r]
	}
	return "unknown"
}

// Equal reports whether s and o count the same (go-cmp uses it).
func (s LinkStats) Equal(o LinkStats) bool { return s == o }

// Total returns the number of datagrams dropped for every reason.
func (s LinkStats) Total() uint64 {
	var n uint64
	for _, v := range s.dropped {
		n += v
	}
	return n
}

// link is one direction's model and counters. Not safe for concurrent use.
type link struct {
	em          *netem.Link // nil: perfect
	impairs     uint64      // how many times Impair set a model: a new stream each
	partitioned bool
	stats       LinkStats
}

// decide applies the link to a datagram of size bytes sent at now: false
// with the reason when it is dropped, else the wait before delivery and,
// for a duplicate, that of the second copy.
func (l *link) decide(now time.Time, size int) (o netem.Outcome, r DropReason, ok bool) {
	l.stats.Sent++
	if l.partitioned {
		l.stats.dropped[DropPartition]++
		return o, DropPartition, false
	}
	if l.em == nil {
		return o, 0, true
	}
	o = l.em.Decide(now, size)
	switch o.Drop {
	case netem.NotDropped:
		return o, 0, true
	case netem.DropLoss:
		r = DropLoss
	case netem.DropBlackout:
		r = DropBlackout
	default:
		r = DropQueue
	}
	l.stats.dropped[r]++
	return o, r, false
}

// links is the set of directions a network has configured, by pair.
type links struct {
	seed  uint64
	start time.Time
	m     map[pair]*link
}

func newLinks(seed uint64, start time.Time) links {
	return links{seed: seed, start: start, m: make(map[pair]*link)}
}

// get returns the link from → to, making a perfect one the first time.
func (ls *links) get(from, to netip.AddrPort) *link {
	k := pair{from, to}
	l, ok := ls.m[k]
	if !ok {
		l = &link{}
		ls.m[k] = l
	}
	return l
}

// impair sets the model of from → to, its random stream drawn from the
// network's seed, the two addresses and how many models the direction had
// before: the same seed and calls give the same streams whatever the order
// links were set up in, and a new model does not replay the old one's draws.
func (ls *links) impair(from, to netip.AddrPort, p netem.Params) error {
	if !from.IsValid() || !to.IsValid() {
		return ErrInvalidAddr
	}
	if err := p.Validate(); err != nil {
		return err
	}
	l := ls.get(from, to)
	if p == (netem.Params{}) {
		l.em = nil
		return nil
	}
	l.impairs++
	l.em = netem.NewLink(p, ls.start, linkSeed(ls.seed+l.impairs-1, from, to))
	return nil
}

// partition cuts or heals both directions between a and b.
func (ls *links) partition(a, b netip.AddrPort, cut bool) {
	ls.get(a, b).partitioned = cut
	ls.get(b, a).partitioned = cut
}

func (ls *links) stats(from, to netip.AddrPort) LinkStats {
	if l, ok := ls.m[pair{from, to}]; ok {
		return l.stats
	}
	return LinkStats{}
}

// linkSeed derives a link's seed from the network's and its two ends,
// by netem's one scheme.
func linkSeed(seed uint64, from, to netip.AddrPort) uint64 {
	f, t := addrWords(from), addrWords(to)
	return netem.Seed(seed, f[0], f[1], f[2], t[0], t[1], t[2])
}

// addrWords is a as three words: its 16-byte address and its port.
func addrWords(a netip.AddrPort) [3]uint64 {
	b := a.Addr().As16()
	return [3]uint64{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]), uint64(a.Port())}
}
