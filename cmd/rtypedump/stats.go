package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/rtypeproto/rtype"
)

// Reasons for drops that need state across datagrams, which the per-datagram
// output does not show.
var (
	errDuplicate    = errors.New("duplicate sequence (§5.2)")
	errTooOld       = errors.New("sequence too old (§5.2)")
	errWrongConnID  = errors.New("connection id differs from the Welcome (§5.4)")
	errNotOnCapture = errors.New("not a whole datagram in the capture")
)

// connStats are the totals of one connection: one client address in a
// capture, one connection id (or the handshake) in hex input.
type connStats struct {
	key          string
	connectionID uint32
	// dir[0] counts datagrams to the server, dir[1] to the client; hex input
	// has no direction and uses dir[0] alone.
	dir      [2]dirStats
	messages map[string]int
	drops    map[string]int
}

// dirStats are the totals of one direction of a connection.
type dirStats struct {
	datagrams, bytes int
	// window is the receiver's §5.2 window, to count the drops it makes.
	window rtype.SeqWindow
	// seqs marks the sequences sent in this direction; peer marks, for each
	// sequence the other side's acks covered, whether one of them said it
	// was received (§5.1).
	seqs map[uint32]bool
	peer map[uint32]bool
}

// stats collects connStats in order of first appearance.
type stats struct {
	order []*connStats
	byKey map[string]*connStats
}

func newStats() *stats { return &stats{byKey: map[string]*connStats{}} }

func (s *stats) conn(key string) *connStats {
	c := s.byKey[key]
	if c == nil {
		c = &connStats{key: key, messages: map[string]int{}, drops: map[string]int{}}
		for i := range c.dir {
			c.dir[i].seqs = map[uint32]bool{}
			c.dir[i].peer = map[uint32]bool{}
		}
		s.byKey[key] = c
		s.order = append(s.order, c)
	}
	return c
}

// add counts one datagram. dir is 0 towards the server, 1 towards the
// client; hasDir is false for hex input. welcomed is the connection id the
// Welcome gave, 0 if unknown.
func (s *stats) add(c *connStats, dir int, hasDir bool, welcomed uint32, d decoded, problem error) {
	ds := &c.dir[dir]
	ds.datagrams++
	ds.bytes += d.size
	if problem != nil {
		c.drops[errNotOnCapture.Error()]++
		return
	}
	if d.kind == kindHandshake && d.err == nil && d.connectionID != 0 {
		c.connectionID = d.connectionID
	}
	if d.err != nil {
		c.drops[d.errBase.Error()]++
		return
	}
	if d.kind == kindHandshake {
		c.messages[d.handshake.String()]++
		return
	}
	if c.connectionID == 0 {
		c.connectionID = d.header.ConnectionID
	}
	if welcomed != 0 && d.header.ConnectionID != welcomed {
		c.drops[errWrongConnID.Error()]++
		return
	}
	if hasDir {
		switch ds.window.Receive(d.header.Sequence) {
		case rtype.SeqDuplicate:
			c.drops[errDuplicate.Error()]++
			return
		case rtype.SeqTooOld:
			c.drops[errTooOld.Error()]++
			return
		}
		ds.seqs[d.header.Sequence] = true
		// This packet's ack fields report on the other direction.
		other := &c.dir[1-dir]
		if d.header.Ack != 0 {
			other.peer[d.header.Ack] = true
			for i := uint32(0); i < 32 && i < d.header.Ack-1; i++ {
				seq := d.header.Ack - 1 - i
				other.peer[seq] = other.peer[seq] || d.header.AckBits&(1<<i) != 0
			}
		}
	}
	for _, m := range d.messages {
		c.messages[messageName(m.raw.Type)]++
		if m.err != nil {
			c.drops[m.err.Error()]++
		}
	}
}

// loss returns how many sequences sent in a direction the peer's acks
// covered, and how many of those no ack reported as received.
func (d *dirStats) loss() (covered, lost int) {
	for seq := range d.seqs {
		got, ok := d.peer[seq]
		if !ok {
			continue
		}
		covered++
		if !got {
			lost++
		}
	}
	return covered, lost
}

// objects returns the totals as output objects, one per connection.
func (s *stats) objects(hasDir bool) []object {
	var out []object
	for _, c := range s.order {
		o := object{}.add("kind", "stats")
		switch {
		case hasDir:
			o = o.add("client", c.key)
		case c.connectionID == 0:
			o = o.add("connection", c.key)
		}
		if c.connectionID != 0 {
			o = o.add("connectionId", c.connectionID)
		}
		if hasDir {
			o = o.add("toServer", dirObject(&c.dir[0])).add("toClient", dirObject(&c.dir[1]))
		} else {
			o = o.add("datagrams", c.dir[0].datagrams).add("bytes", c.dir[0].bytes)
		}
		o = o.add("messages", countObject(c.messages)).add("drops", countObject(c.drops))
		out = append(out, o)
	}
	return out
}

func dirObject(d *dirStats) object {
	covered, lost := d.loss()
	return object{}.add("datagrams", d.datagrams).add("bytes", d.bytes).
		add("ackCovered", covered).add("ackLost", lost)
}

// countObject lists counts by name, in name order so that output is stable.
func countObject(m map[string]int) object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := object{}
	for _, k := range keys {
		o = o.add(k, m[k])
	}
	return o
}

// writeStatsText writes the totals as indented lines.
func writeStatsText(w io.Writer, list []object) error {
	var b strings.Builder
	for _, o := range list {
		id, hasID := o.get("connectionId")
		if client, ok := o.get("client"); ok {
			fmt.Fprintf(&b, "client %v", client)
			if hasID {
				fmt.Fprintf(&b, " (connectionId %v)", id)
			}
		} else if hasID {
			fmt.Fprintf(&b, "connectionId %v", id)
		} else {
			c, _ := o.get("connection")
			fmt.Fprintf(&b, "%v", c)
		}
		b.WriteString(":\n")
		for _, dir := range []string{"toServer", "toClient"} {
			if v, ok := o.get(dir); ok {
				d := v.(object)
				get := func(k string) int { x, _ := d.get(k); return x.(int) }
				fmt.Fprintf(&b, "  %s: %d datagrams, %d bytes", dir, get("datagrams"), get("bytes"))
				if c := get("ackCovered"); c > 0 {
					fmt.Fprintf(&b, ", %d of the %d sequences the acks covered reported lost (%.1f%%)", get("ackLost"), c, 100*float64(get("ackLost"))/float64(c))
				}
				b.WriteByte('\n')
			}
		}
		if v, ok := o.get("datagrams"); ok {
			by, _ := o.get("bytes")
			fmt.Fprintf(&b, "  %v datagrams, %v bytes\n", v, by)
		}
		for _, k := range []string{"messages", "drops"} {
			v, _ := o.get(k)
			counts := v.(object)
			if len(counts) == 0 {
				continue
			}
			fmt.Fprintf(&b, "  %s:", k)
			for i, f := range counts {
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, " %s %v", f.key, f.val)
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
