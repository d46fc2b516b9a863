package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// Bounds on what the totals keep, so that a capture of any size or origin
// is summed in bounded memory.
const (
	// maxConns is how many connections get a row of their own; datagrams
	// of any further one are summed in a single row.
	maxConns = 4096
	// ackRing is how many of the latest sequences sent in a direction wait
	// for the peer's acks; §5.1 acks reach 32 below the highest sequence
	// received, so twice that leaves room for the round trip.
	ackRing = 64
)

// connStats are the totals of one connection: one client address in a
// capture, one connection id (or the handshake) in hex input.
type connStats struct {
	key          string
	connectionID uint32
	// merged marks the row that sums every connection past maxConns: their
	// sequences and ids mean nothing together, so it counts only datagrams,
	// bytes, messages and drops.
	merged bool
	// dir[0] counts datagrams to the server, dir[1] to the client; hex input
	// has no direction and uses dir[0] alone.
	dir      [2]dirStats
	messages map[string]int
	// drops counts by the stable key of each reason (wiredump.DropKey).
	drops map[string]int
}

// dirStats are the totals of one direction of a connection.
type dirStats struct {
	datagrams, bytes int
	// sent holds the latest sequences sent in this direction, at index
	// sequence mod ackRing, with what the other side's acks said of them
	// (§5.1). A sequence leaves the ring when a later one takes its place;
	// its outcome then goes to covered and lost.
	sent          [ackRing]sentSeq
	covered, lost int
}

// sentSeq is one sequence of a dirStats ring.
type sentSeq struct {
	seq uint32
	// set: the slot holds seq; covered: an ack reached it; received: an
	// ack reported it received.
	set, covered, received bool
}

// send records that sequence seq went out in this direction.
func (d *dirStats) send(seq uint32) {
	s := &d.sent[seq%ackRing]
	d.settle(s)
	*s = sentSeq{seq: seq, set: true}
}

// settle counts the outcome of the sequence in slot s.
func (d *dirStats) settle(s *sentSeq) {
	if s.set && s.covered {
		d.covered++
		if !s.received {
			d.lost++
		}
	}
}

// acked records what an ack of the other side said of seq: received or not.
func (d *dirStats) acked(seq uint32, received bool) {
	s := &d.sent[seq%ackRing]
	if s.set && s.seq == seq {
		s.covered = true
		s.received = s.received || received
	}
}

// ackedBy records what a header's ack and ackBits say of the sequences
// they cover: ack itself and the 32 below it (§5.1); an ack of 0 covers
// nothing.
func (d *dirStats) ackedBy(ack, bits uint32) {
	for seq := ack; seq > 0 && ack-seq <= 32; seq-- {
		d.acked(seq, rtype.Acked(seq, ack, bits))
	}
}

// stats collects connStats in order of first appearance.
type stats struct {
	order []*connStats
	byKey map[string]*connStats
	// other is the row of the connections past maxConns, named otherKey.
	other    *connStats
	otherKey string
}

// newStats returns empty totals; otherKey names the row that sums the
// connections past maxConns.
func newStats(otherKey string) *stats {
	return &stats{byKey: map[string]*connStats{}, otherKey: otherKey}
}

func (s *stats) conn(key string) *connStats {
	c := s.byKey[key]
	if c != nil {
		return c
	}
	if len(s.byKey) >= maxConns {
		if s.other == nil {
			s.other = &connStats{key: s.otherKey, merged: true, messages: map[string]int{}, drops: map[string]int{}}
		}
		return s.other
	}
	c = &connStats{key: key, messages: map[string]int{}, drops: map[string]int{}}
	s.byKey[key] = c
	s.order = append(s.order, c)
	return c
}

// add counts one datagram. dir is 0 towards the server, 1 towards the
// client; hasDir is false for hex input. Every drop comes in d.Err: the
// library's, the capture's (wiredump.ErrNotWholeDatagram), and those of
// wiredump.Sides.Decode, by the receiver's state (§5.2, §5.4).
func (s *stats) add(c *connStats, dir int, hasDir bool, d *wiredump.Decoded) {
	ds := &c.dir[dir]
	ds.datagrams++
	ds.bytes += len(d.Data)
	if c.merged {
		hasDir = false
	}
	if d.Kind == wiredump.Handshake && d.Err == nil && d.ConnectionID != 0 && !c.merged {
		c.connectionID = d.ConnectionID
	}
	if d.Err != nil {
		c.drops[wiredump.DropKey(d.Err)]++
		return
	}
	if d.Kind == wiredump.Handshake {
		c.messages[d.Handshake.String()]++
		return
	}
	if c.connectionID == 0 && !c.merged {
		c.connectionID = d.Header.ConnectionID
	}
	if hasDir {
		ds.send(d.Header.Sequence)
		// This packet's ack fields report on the other direction.
		c.dir[1-dir].ackedBy(d.Header.Ack, d.Header.AckBits)
	}
	for _, m := range d.Messages {
		c.messages[m.Name()]++
		if m.Err != nil {
			c.drops[wiredump.DropKey(m.Err)]++
		}
	}
}

// loss returns how many sequences sent in a direction the peer's acks
// covered, and how many of those no ack reported as received. Acks that
// come after ackRing later sequences were sent are not counted.
func (d *dirStats) loss() (covered, lost int) {
	covered, lost = d.covered, d.lost
	for _, s := range d.sent {
		if s.set && s.covered {
			covered++
			if !s.received {
				lost++
			}
		}
	}
	return covered, lost
}

// objects returns the totals as output objects, one per connection.
func (s *stats) objects(hasDir bool) []wiredump.Object {
	var out []wiredump.Object
	list := s.order
	if s.other != nil {
		list = append(list[:len(list):len(list)], s.other)
	}
	for _, c := range list {
		o := wiredump.Object{}.Add("kind", "stats")
		switch {
		case hasDir:
			o = o.Add("client", c.key)
		case c.connectionID == 0 || c.merged:
			o = o.Add("connection", c.key)
		}
		if c.connectionID != 0 {
			o = o.Add("connectionId", c.connectionID)
		}
		if hasDir {
			o = o.Add("toServer", dirObject(&c.dir[0])).Add("toClient", dirObject(&c.dir[1]))
		} else {
			o = o.Add("datagrams", c.dir[0].datagrams).Add("bytes", c.dir[0].bytes)
		}
		o = o.Add("messages", countObject(c.messages)).Add("drops", countObject(c.drops))
		out = append(out, o)
	}
	return out
}

func dirObject(d *dirStats) wiredump.Object {
	covered, lost := d.loss()
	return wiredump.Object{}.Add("datagrams", d.datagrams).Add("bytes", d.bytes).
		Add("ackCovered", covered).Add("ackLost", lost)
}

// countObject lists counts by name, in name order so that output is stable.
func countObject(m map[string]int) wiredump.Object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := wiredump.Object{}
	for _, k := range keys {
		o = o.Add(k, m[k])
	}
	return o
}

// writeStatsText writes the totals as indented lines of at most width
// columns, a line too long for it going on under its first item.
func writeStatsText(w io.Writer, list []wiredump.Object, width int) error {
	var b strings.Builder
	put := func(prefix string, items []string) {
		for _, line := range termwidth.Fill(prefix, items, width) {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	for _, o := range list {
		id, hasID := o.Get("connectionId")
		var name string
		if client, ok := o.Get("client"); ok {
			name = fmt.Sprintf("client %v", client)
			if hasID {
				name += fmt.Sprintf(" (connectionId %v)", id)
			}
		} else if hasID {
			name = fmt.Sprintf("connectionId %v", id)
		} else {
			c, _ := o.Get("connection")
			name = fmt.Sprint(c)
		}
		b.WriteString(name + ":\n")
		for _, dir := range []string{"toServer", "toClient"} {
			if v, ok := o.Get(dir); ok {
				d := v.(wiredump.Object)
				get := func(k string) int { x, _ := d.Get(k); return x.(int) }
				items := []string{fmt.Sprintf("%d datagrams", get("datagrams")), fmt.Sprintf("%d bytes", get("bytes"))}
				if c := get("ackCovered"); c > 0 {
					items = append(items, fmt.Sprintf("ack loss %d of %d sequences (%.1f%%)", get("ackLost"), c, 100*float64(get("ackLost"))/float64(c)))
				}
				put("  "+dir+": ", items)
			}
		}
		if v, ok := o.Get("datagrams"); ok {
			by, _ := o.Get("bytes")
			put("  ", []string{fmt.Sprintf("%v datagrams", v), fmt.Sprintf("%v bytes", by)})
		}
		for _, k := range []string{"messages", "drops"} {
			v, _ := o.Get(k)
			counts := v.(wiredump.Object)
			if len(counts) == 0 {
				continue
			}
			items := make([]string, len(counts))
			for i, f := range counts {
				items[i] = fmt.Sprintf("%s %v", f.Key, f.Value)
			}
			put("  "+k+": ", items)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
