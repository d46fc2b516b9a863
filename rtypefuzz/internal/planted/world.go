package planted

// Game rules of §10 and the entities of §9.3.
const (
	numSlots    = 4
	maxEntities = maxStates // every entity fits one Snapshot (§8.1)
	shipSpeed   = 4.0       // pixels per tick
	missileStep = 12.0      // pixels per tick
	playWidth   = 1920.0
	playHeight  = 1080.0
	diagonal    = 0.7071 // §7.1
	archBullet  = 0x4BED // §9.3
)

// shipArchetypes are the ships of slots 0 to 3 (§9.3, §10).
var shipArchetypes = [numSlots]uint16{0xBD3E, 0x54EE, 0x8F7A, 0xFAD4}

// entity is one replicated entity (§8).
type entity struct {
	id      uint32
	kind    uint16 // archetype id (§9.3)
	x, y    float64
	vx, vy  float64
	missile bool
}

// world holds the entities.
type world struct {
	live []*entity // in creation order, at most maxEntities
	byID map[uint32]*entity
	// lastID is the last id allocated, from 1: 0 is never one (§8.2).
	lastID uint32
	// gone holds the ids destroyed.
	gone  bitset
	slots [numSlots]*peer
}

func newWorld() world { return world{byID: make(map[uint32]*entity)} }

// add gives e the next id and puts it in the world.
func (w *world) add(e *entity) {
	w.lastID++
	e.id = w.lastID
	w.live = append(w.live, e)
	w.byID[e.id] = e
}

// remove takes e out of the world, for good.
func (w *world) remove(e *entity) {
	for i, l := range w.live {
		if l == e {
			w.live = append(w.live[:i], w.live[i+1:]...)
			break
		}
	}
	delete(w.byID, e.id)
	w.gone.set(e.id)
}

// freeSlot returns the lowest free player slot, or -1 (§10).
func (w *world) freeSlot() int {
	for i, p := range w.slots {
		if p == nil {
			return i
		}
	}
	return -1
}

// bitset is a set of ids, a bit each.
type bitset []uint64

func (b *bitset) set(id uint32) {
	for int(id/64) >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[id/64] |= 1 << (id % 64)
}

func (b bitset) has(id uint32) bool {
	return int(id/64) < len(b) && b[id/64]&(1<<(id%64)) != 0
}
