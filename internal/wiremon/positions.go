package wiremon

import (
	"fmt"
	"math"
	"net/netip"

	"github.com/rtypeproto/rtype"
)

// A server must clamp positions to the encodable range, -8192 to 8191.75
// (§9.1). The wire shows whether it does only for an entity it lets past
// an end of the range: clamped, the position stays at that end; encoded
// modulo the range, it jumps to the other. The Monitor follows every
// entity of every connection through the Snapshots and judges rule Clamp
// on each two positions of one entity at most leapTicks apart.

// leapFar is how far from 0 both ends of a jump lie: no entity crosses
// most of the range between two Snapshots but by wrapping.
const leapFar = 4096

// leapTicks bounds the serverTicks between two Snapshots compared: half a
// second at §10's 60 ticks.
const leapTicks = 30

// maxEntities bounds the entities followed over every connection.
const maxEntities = 1 << 16

// entity names one entity of one connection.
type entity struct {
	client netip.AddrPort
	conn   uint32
	id     uint32
}

// sample is one position of an entity, at a serverTick.
type sample struct {
	tick uint32
	x, y float64
}

func (s sample) String() string { return fmt.Sprintf("(%.2f, %.2f) at tick %d", s.x, s.y, s.tick) }

// Positions is what a Monitor saw of the positions the server sent: the
// first entity that stayed at an end of the range in two Snapshots
// (evidence of the clamp; "" until seen), how many positions, and their
// least and greatest x and y. A jump across the range is a breach of rule
// Clamp, in Record.
type Positions struct {
	Bound  string
	N      int
	Lo, Hi [2]float64
}

// Extent says how far the positions went.
func (p Positions) Extent() string {
	if p.N == 0 {
		return "the run saw no position"
	}
	return fmt.Sprintf("the %d positions the run saw spanned x %.2f to %.2f, y %.2f to %.2f", p.N, p.Lo[0], p.Hi[0], p.Lo[1], p.Hi[1])
}

// add notes a position, for the extent.
func (p *Positions) add(x, y rtype.Pos16) {
	v := [2]float64{x.Pixels(), y.Pixels()}
	for i := range v {
		if p.N == 0 || v[i] < p.Lo[i] {
			p.Lo[i] = v[i]
		}
		if p.N == 0 || v[i] > p.Hi[i] {
			p.Hi[i] = v[i]
		}
	}
	p.N++
}

// Positions returns what the Monitor saw of positions so far.
func (w *Monitor) Positions() Positions {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pos
}

// created notes a CreateEntity the server sent on connection n of c: a new
// life of its id, with no jump to see.
func (w *Monitor) created(c *conn, n *numbering, p []byte) {
	var m rtype.CreateEntity
	if m.UnmarshalBinary(p) != nil {
		return
	}
	delete(w.ents, entity{c.addr, n.id, m.NetworkID})
	w.pos.add(m.X, m.Y)
}

// destroyed forgets an entity the server destroyed.
func (w *Monitor) destroyed(c *conn, n *numbering, p []byte) {
	var m rtype.DestroyEntity
	if m.UnmarshalBinary(p) == nil {
		delete(w.ents, entity{c.addr, n.id, m.NetworkID})
	}
}

// snapshot judges the positions of a valid Snapshot against the last of
// each entity (§9.1).
func (w *Monitor) snapshot(c *conn, n *numbering, p []byte, at moment) {
	tick, states, err := rtype.ParseSnapshot(p)
	if err != nil {
		return
	}
	for i := range states.Len() {
		st := states.At(i)
		w.pos.add(st.X, st.Y)
		k := entity{c.addr, n.id, st.NetworkID}
		now := sample{tick: tick, x: st.X.Pixels(), y: st.Y.Pixels()}
		prev, ok := w.ents[k]
		if !ok && len(w.ents) >= maxEntities || ok && !rtype.SequenceNewer(now.tick, prev.tick) {
			continue
		}
		w.ents[k] = now
		if !ok || now.tick-prev.tick > leapTicks {
			continue
		}
		where := func() string {
			return fmt.Sprintf("%s got a Snapshot at %v placing entity %d (entityType %#02x) at %v, after %v", w.conn(c, n.id), at, st.NetworkID, st.EntityType, now, prev)
		}
		w.check(Clamp, !leaps(prev.x, now.x) && !leaps(prev.y, now.y), where)
		if w.pos.Bound == "" && (stays(prev.x, now.x) || stays(prev.y, now.y)) {
			w.pos.Bound = where()
		}
	}
}

// leaps reports whether a coordinate went from one far side to the other.
func leaps(a, b float64) bool {
	return a > leapFar && b < -leapFar || a < -leapFar && b > leapFar
}

// stays reports whether a coordinate stood at an end of the range, -8192
// or 8191.75, in two Snapshots: where a clamped position past it stays.
func stays(a, b float64) bool {
	return a == b && (a == rtype.Pos16(0).Pixels() || a == rtype.Pos16(math.MaxUint16).Pixels())
}
