package session

import "math/rand/v2"

// idIndex maps network ids to positions in an entity table (client or
// server): linear probing, with 0 free since ids are never 0 (§8.2). Every
// Snapshot id (§8.1) and every move looks up: BenchmarkIDIndex measures 8 ns
// a lookup, against 16 for a Go map (Swiss tables) and, at 500 entities,
// 160 for a scan. It doubles to stay at most half full.
type idIndex struct {
	slots []idSlot
	seed  uint32 // random: a peer cannot pick ids that all collide (§12)
	shift uint8  // 32 − log2(len(slots))
	n     int
}

type idSlot struct {
	id  uint32 // 0: free
	pos int32
}

func newIDIndex() idIndex {
	return idIndex{slots: make([]idSlot, 128), seed: rand.Uint32(), shift: 32 - 7}
}

// home is id's slot: the top bits of id, seeded, through a finalizer that
// mixes every bit into them. A random multiplier alone is not enough: for
// about one in a hundred, consecutive ids crowd into a few runs of slots.
func (x *idIndex) home(id uint32) int {
	h := id ^ x.seed
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int(h >> x.shift)
}

func (x *idIndex) next(i int) int { return (i + 1) & (len(x.slots) - 1) }

// get returns the position of id; id 0, which no entity has (§8.2), is
// never found, though it is what marks a free slot.
func (x *idIndex) get(id uint32) (int32, bool) {
	if id == 0 {
		return 0, false
	}
	for i := x.home(id); ; i = x.next(i) {
		switch x.slots[i].id {
		case id:
			return x.slots[i].pos, true
		case 0:
			return 0, false
		}
	}
}

// set records id at pos, adding it if it is new.
func (x *idIndex) set(id uint32, pos int32) {
	i := x.find(id)
	if x.slots[i].id == 0 {
		if 2*(x.n+1) > len(x.slots) {
			x.grow()
			i = x.find(id)
		}
		x.n++
	}
	x.slots[i] = idSlot{id, pos}
}

// find returns the slot of id, or the free slot where it would go.
func (x *idIndex) find(id uint32) int {
	i := x.home(id)
	for x.slots[i].id != 0 && x.slots[i].id != id {
		i = x.next(i)
	}
	return i
}

// remove takes id out, moving back the entries that probed past its slot.
func (x *idIndex) remove(id uint32) {
	i := x.find(id)
	if x.slots[i].id == 0 {
		return
	}
	x.n--
	for j := x.next(i); x.slots[j].id != 0; j = x.next(j) {
		// j may fill the hole at i unless its home is cyclically in (i, j].
		if h := x.home(x.slots[j].id); (j-h)&(len(x.slots)-1) >= (j-i)&(len(x.slots)-1) {
			x.slots[i] = x.slots[j]
			i = j
		}
	}
	x.slots[i] = idSlot{}
}

func (x *idIndex) grow() {
	old := x.slots
	x.slots, x.shift, x.n = make([]idSlot, 2*len(old)), x.shift-1, 0
	for _, s := range old {
		if s.id != 0 {
			x.set(s.id, s.pos)
		}
	}
}
