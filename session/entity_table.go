package session

// table is an entity table, the Client's or the Server's: entities in a
// slice, listed without allocating (§8.1), and an index by network id.
// Removing swaps the last entity into the hole, so positions change.
type table[E keyed] struct {
	index idIndex
	ents  []E
}

// keyed is an entity with its network id (§8.2: never 0).
type keyed interface{ key() uint32 }

func newTable[E keyed](capacity int) table[E] {
	return table[E]{index: newIDIndex(), ents: make([]E, 0, capacity)}
}

func (t *table[E]) len() int { return len(t.ents) }

// find returns the position of entity id.
func (t *table[E]) find(id uint32) (int, bool) {
	i, ok := t.index.get(id)
	return int(i), ok
}

// pos returns the position of entity id, or -1.
func (t *table[E]) pos(id uint32) int {
	if i, ok := t.index.get(id); ok {
		return int(i)
	}
	return -1
}

// get returns entity id, to be updated in place.
func (t *table[E]) get(id uint32) (*E, bool) {
	i, ok := t.index.get(id)
	if !ok {
		return nil, false
	}
	return &t.ents[i], true
}

// push appends e and returns its position.
func (t *table[E]) push(e E) int {
	i := len(t.ents)
	t.index.set(e.key(), int32(i))
	t.ents = append(t.ents, e)
	return i
}

// removeAt takes out the entity at i, moving the last one into its place,
// and returns the position the last one had.
func (t *table[E]) removeAt(i int) (last int) {
	last = len(t.ents) - 1
	id := t.ents[i].key()
	if i != last {
		t.ents[i] = t.ents[last]
		t.index.set(t.ents[i].key(), int32(i))
	}
	t.ents = t.ents[:last]
	t.index.remove(id)
	return last
}
