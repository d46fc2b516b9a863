package main

import (
	"time"

	"github.com/rtypeproto/rtype"
)

// The report's bounds: memory stays bounded whatever the input's length
// or number of clients.
const (
	// maxReportClients is how many client addresses get charts; the
	// datagrams of further ones are counted in reportModel.skipped.
	maxReportClients = 64
	// maxBins is how many time bins a client keeps: past it, neighbouring
	// bins merge and each bin spans twice the time.
	maxBins = 3600
	// pingMemory is how many Pings a client's RTT matching remembers.
	pingMemory = 32
)

// seen is one datagram as the report reads it, from a capture or a trace.
type seen struct {
	at       time.Time
	client   string
	toServer bool
	length   int
	drop     string // the drop key, "" when kept
	header   rtype.PacketHeader
	packet   bool // header is set
	snapshot bool
	creates  []uint32
	destroys []uint32
	pings    []uint32 // Ping timestamps (§7.2)
	pongs    []uint32
	world    []worldMsg // to the client, from a capture: traces hold no positions
}

// bin is what one client did in one span of time; up is client → server.
type bin struct {
	dg, bytes       [2]int // [up, down]
	covered, lost   [2]int // sequences an ack reached, and of them lost
	got, missing    [2]int // packets seen, and sequences skipped net of late ones
	rttSum          float64
	rttN            int
	snapN           int // Snapshot intervals ended in the bin
	snapSum, snapSq float64
	entities        int // held at the bin's end
	drops, resends  int
	rttMax          float64
}

// clientSeries is one client's report.
type clientSeries struct {
	client   string
	bins     []bin
	width    time.Duration // of a bin
	dirs     [2]dirStats   // the §5.1 ack rings, for loss each way
	gaps     [2]seqGaps    // the sequences seen, for loss each way
	drops    map[string]int
	resends  int
	pings    [pingMemory]pingSent
	np       int
	lastSnap time.Time
	held     map[uint32]bool // entities created and not destroyed
	rtts     []float64       // every sample, bounded by downsampling below
	snaps    []float64
	track    xTrack
}

type pingSent struct {
	ts uint32
	at time.Time
}

// reportModel is every client's series, in order of appearance.
type reportModel struct {
	clients []*clientSeries
	byAddr  map[string]*clientSeries
	start   time.Time
	end     time.Time
	skipped int
	source  string // what was read: the capture or trace files
	traces  bool   // read from traces, which hold no positions
}

func newReportModel(source string) *reportModel {
	return &reportModel{byAddr: map[string]*clientSeries{}, source: source}
}

func (m *reportModel) series(client string, at time.Time) *clientSeries {
	if c := m.byAddr[client]; c != nil {
		return c
	}
	if len(m.clients) >= maxReportClients {
		return nil
	}
	c := &clientSeries{client: client, width: time.Second, drops: map[string]int{}, held: map[uint32]bool{}}
	m.clients = append(m.clients, c)
	m.byAddr[client] = c
	return c
}

// add takes one datagram.
func (m *reportModel) add(s *seen) {
	if m.start.IsZero() {
		m.start = s.at // bins count from the first datagram; an earlier one goes to the first bin
	}
	if s.at.After(m.end) {
		m.end = s.at
	}
	c := m.series(s.client, s.at)
	if c == nil {
		m.skipped++
		return
	}
	b := c.bin(s.at, m.start)
	d := 1
	if s.toServer {
		d = 0
	}
	b.dg[d]++
	b.bytes[d] += s.length
	if s.drop != "" {
		c.drops[s.drop]++
		b.drops++
		return
	}
	if s.packet {
		before := [2][2]int{{c.dirs[0].covered, c.dirs[0].lost}, {c.dirs[1].covered, c.dirs[1].lost}}
		b.got[d]++
		b.missing[d] += c.gaps[d].see(s.header.Sequence)
		c.dirs[d].send(s.header.Sequence)
		c.dirs[1-d].ackedBy(s.header.Ack, s.header.AckBits)
		for i := range 2 {
			b.covered[i] += c.dirs[i].covered - before[i][0]
			b.lost[i] += c.dirs[i].lost - before[i][1]
		}
	}
	c.entityMessages(s, b)
	c.roundTrips(s, b)
	if world := s.world; !s.toServer && len(world) > 0 || c.track.view != nil {
		if s.toServer {
			world = nil // the client's datagrams only move the frames on
		}
		c.track.see(s.at, world)
	}
}

// entityMessages follows the entities the client holds (§8.2, §8.3), the
// copies sent again, and the Snapshot interval (§10).
func (c *clientSeries) entityMessages(s *seen, b *bin) {
	if s.toServer {
		return
	}
	for _, id := range s.creates {
		if c.held[id] {
			c.resends++
			b.resends++
		}
		c.held[id] = true
	}
	for _, id := range s.destroys {
		if !c.held[id] {
			c.resends++
			b.resends++
		}
		delete(c.held, id)
	}
	if len(c.held) > 1<<16 {
		clear(c.held) // a hostile capture's ids: stop counting them
	}
	b.entities = len(c.held)
	if s.snapshot {
		if !c.lastSnap.IsZero() {
			ms := float64(s.at.Sub(c.lastSnap).Microseconds()) / 1000
			b.snapN++
			b.snapSum += ms
			b.snapSq += ms * ms
			c.snaps = keepSample(c.snaps, ms)
		}
		c.lastSnap = s.at
	}
}

// roundTrips matches each Pong to the client's Ping of the same
// timestamp (§7.2, §8.4).
func (c *clientSeries) roundTrips(s *seen, b *bin) {
	if s.toServer {
		for _, ts := range s.pings {
			c.pings[c.np%pingMemory] = pingSent{ts: ts, at: s.at}
			c.np++
		}
		return
	}
	for _, ts := range s.pongs {
		for i := range c.pings {
			if p := &c.pings[i]; !p.at.IsZero() && p.ts == ts {
				c.rtt(float64(s.at.Sub(p.at).Microseconds())/1000, b)
				p.at = time.Time{}
				break
			}
		}
	}
}

// rtt takes one round-trip sample in ms.
func (c *clientSeries) rtt(ms float64, b *bin) {
	b.rttSum += ms
	b.rttN++
	b.rttMax = max(b.rttMax, ms)
	c.rtts = keepSample(c.rtts, ms)
}

// keepSample appends v to the samples kept for percentiles, halving them
// past 8192 so that memory stays bounded (every other one goes).
func keepSample(s []float64, v float64) []float64 {
	if len(s) >= 8192 {
		n := 0
		for i := 0; i < len(s); i += 2 {
			s[n] = s[i]
			n++
		}
		s = s[:n]
	}
	return append(s, v)
}

// bin returns the bin of time at, merging bins past maxBins.
func (c *clientSeries) bin(at, start time.Time) *bin {
	i := max(0, int(at.Sub(start)/c.width))
	for i >= maxBins {
		c.merge()
		i = max(0, int(at.Sub(start)/c.width))
	}
	for len(c.bins) <= i {
		var last int
		if n := len(c.bins); n > 0 {
			last = c.bins[n-1].entities
		}
		c.bins = append(c.bins, bin{entities: last})
	}
	return &c.bins[i]
}

// merge halves the bins: each new one spans two old ones.
func (c *clientSeries) merge() {
	n := (len(c.bins) + 1) / 2
	for i := range n {
		a := c.bins[2*i]
		if 2*i+1 < len(c.bins) {
			b := c.bins[2*i+1]
			for d := range 2 {
				a.dg[d] += b.dg[d]
				a.bytes[d] += b.bytes[d]
				a.covered[d] += b.covered[d]
				a.lost[d] += b.lost[d]
				a.got[d] += b.got[d]
				a.missing[d] += b.missing[d]
			}
			a.rttSum, a.rttN, a.rttMax = a.rttSum+b.rttSum, a.rttN+b.rttN, max(a.rttMax, b.rttMax)
			a.snapN, a.snapSum, a.snapSq = a.snapN+b.snapN, a.snapSum+b.snapSum, a.snapSq+b.snapSq
			a.entities, a.drops, a.resends = b.entities, a.drops+b.drops, a.resends+b.resends
		}
		c.bins[i] = a
	}
	c.bins = c.bins[:n]
	c.width *= 2
}

// percentile returns the p-th percentile (0 ≤ p ≤ 1) of s, sorted; 0
// when empty.
func percentile(s []float64, p float64) float64 {
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// seqGaps follows the sequences seen in one direction (§5.2): a capture
// taken at the receiver never sees a lost packet, so its acks cannot
// show it, but the gap it leaves can. A packet that comes late, within 64
// of the highest, fills its gap again.
type seqGaps struct {
	top  uint32
	seen uint64 // bit i: top-i was seen
}

// see takes sequence seq and returns how many sequences it shows missing:
// those it jumps over, or -1 for a late one filling a gap.
func (g *seqGaps) see(seq uint32) int {
	switch {
	case g.top == 0:
		g.top, g.seen = seq, 1
		return 0
	case seq > g.top:
		jump := seq - g.top
		missing := int(min(jump-1, 64))
		if jump >= 64 {
			g.seen = 0
		} else {
			g.seen <<= jump
		}
		g.top, g.seen = seq, g.seen|1
		return missing
	case g.top-seq < 64 && g.seen&(1<<(g.top-seq)) == 0:
		g.seen |= 1 << (g.top - seq)
		return -1
	}
	return 0
}

// lossPct is the loss of direction d in percent from what b saw: the
// larger of what the acks show (a capture at the sender) and the gaps
// (at the receiver).
func (b *bin) lossPct(d int) float64 {
	return 100 * max(ratio(float64(b.lost[d]), float64(b.covered[d])), ratio(float64(b.missing[d]), float64(b.missing[d]+b.got[d])))
}
