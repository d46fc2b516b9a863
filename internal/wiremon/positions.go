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

// connection names one connection of one client address.
type connection struct {
	client netip.AddrPort
	id     uint32
}

// entities is the last position of each entity of the connections
// followed, by connection then by entity id: a Snapshot looks its
// connection up once, then each state by its id alone. A connection with
// no entity left is dropped from it, so that it holds at most maxEntities
// connections.
type entities struct {
	conns map[connection]map[uint32]sample
	n     int // entities in all
}

// of returns the entities of connection k, nil if none.
func (e *entities) of(k connection) map[uint32]sample { return e.conns[k] }

// put sets entity id of connection k to s in m, the map of(k) returned,
// unless it is new and maxEntities are followed; it returns the map of
// k, nil while k has no entity.
func (e *entities) put(k connection, m map[uint32]sample, id uint32, s sample) map[uint32]sample {
	if _, ok := m[id]; !ok {
		if e.n >= maxEntities {
			return m
		}
		if m == nil {
			m = map[uint32]sample{}
			e.conns[k] = m
		}
		e.n++
	}
	m[id] = s
	return m
}

// forget drops entity id of connection k.
func (e *entities) forget(k connection, id uint32) {
	m := e.conns[k]
	if _, ok := m[id]; !ok {
		return
	}
	delete(m, id)
	e.n--
	if len(m) == 0 {
		delete(e.conns, k)
	}
}

// sample is one position of an entity, at a serverTick.
type sample struct {
	tick uint32
	x, y rtype.Pos16
}

func (s sample) String() string {
	return fmt.Sprintf("(%.2f, %.2f) at tick %d", s.x.Pixels(), s.y.Pixels(), s.tick)
}

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

// extent is the positions seen so far, as sent: a Pos16 grows with the
// position it encodes (§9.1), so the least and greatest are those of the
// pixels.
type extent struct {
	n      int
	lo, hi [2]rtype.Pos16
}

// add notes a position.
func (e *extent) add(x, y rtype.Pos16) {
	v := [2]rtype.Pos16{x, y}
	for i := range v {
		if e.n == 0 || v[i] < e.lo[i] {
			e.lo[i] = v[i]
		}
		if e.n == 0 || v[i] > e.hi[i] {
			e.hi[i] = v[i]
		}
	}
	e.n++
}

// Positions returns what the Monitor saw of positions so far.
func (w *Monitor) Positions() Positions {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := Positions{Bound: w.bound, N: w.ext.n}
	if p.N > 0 {
		for i := range 2 {
			p.Lo[i], p.Hi[i] = w.ext.lo[i].Pixels(), w.ext.hi[i].Pixels()
		}
	}
	return p
}

// created notes a CreateEntity the server sent on connection n of c: a new
// life of its id, with no jump to see.
func (w *Monitor) created(c *conn, n *numbering, p []byte) {
	var m rtype.CreateEntity
	if m.UnmarshalBinary(p) != nil {
		return
	}
	w.ents.forget(connection{c.addr, n.id}, m.NetworkID)
	w.ext.add(m.X, m.Y)
}

// destroyed forgets an entity the server destroyed.
func (w *Monitor) destroyed(c *conn, n *numbering, p []byte) {
	var m rtype.DestroyEntity
	if m.UnmarshalBinary(p) == nil {
		w.ents.forget(connection{c.addr, n.id}, m.NetworkID)
	}
}

// snapshot judges the positions of a valid Snapshot against the last of
// each entity (§9.1).
func (w *Monitor) snapshot(c *conn, n *numbering, p []byte, at moment) {
	tick, states, err := rtype.ParseSnapshot(p)
	if err != nil {
		return
	}
	k := connection{c.addr, n.id}
	m := w.ents.of(k)
	for i := range states.Len() {
		st := states.At(i)
		w.ext.add(st.X, st.Y)
		now := sample{tick: tick, x: st.X, y: st.Y}
		prev, ok := m[st.NetworkID]
		if ok && !rtype.SequenceNewer(now.tick, prev.tick) {
			continue
		}
		m = w.ents.put(k, m, st.NetworkID, now)
		if !ok || now.tick-prev.tick > leapTicks {
			continue
		}
		where := func() string {
			return fmt.Sprintf("%s got a Snapshot at %v placing entity %d (entityType %#02x) at %v, after %v", w.conn(c, n.id), at, st.NetworkID, st.EntityType, now, prev)
		}
		w.check(Clamp, !leaps(prev.x, now.x) && !leaps(prev.y, now.y), where)
		if w.bound == "" && (stays(prev.x, now.x) || stays(prev.y, now.y)) {
			w.bound = where()
		}
	}
}

// leaps reports whether a coordinate went from one far side to the other.
func leaps(p, q rtype.Pos16) bool {
	a, b := p.Pixels(), q.Pixels()
	return a > leapFar && b < -leapFar || a < -leapFar && b > leapFar
}

// stays reports whether a coordinate stood at an end of the range, -8192
// or 8191.75, in two Snapshots: where a clamped position past it stays.
func stays(a, b rtype.Pos16) bool {
	return a == b && (a == 0 || a == math.MaxUint16)
}
