package rtypefuzz

// idSetBits is log2 of an idSet's table size, 2*maxIDs, which must be a
// power of 2: the assignment below compiles only while 1<<idSetBits is
// that size.
const idSetBits = 9

var _ [0]struct{} = [1<<idSetBits - 2*maxIDs]struct{}{}

// idSet finds the distinct entity ids of a session in one pass, whatever
// their number: a linear search per id made a Snapshot of a few hundred
// ids cost tens of thousands of comparisons, and a map allocates.
type idSet struct {
	// slots is an open-addressing table of maxIDs*2 ids, 0 for empty
	// (0 is no entity id, §8); gen marks the slots of the current call,
	// so that a call need not clear them.
	slots [2 * maxIDs]uint32
	gen   [2 * maxIDs]uint32
	cur   uint32
}

// distinct appends to dst the ids of entities, each once in the order
// first seen, none 0, maxIDs at most.
func (s *idSet) distinct(dst []uint32, entities []uint32) []uint32 {
	s.cur++
	if s.cur == 0 {
		s.gen = [2 * maxIDs]uint32{}
		s.cur = 1
	}
	n := 0
	for _, id := range entities {
		if n == maxIDs {
			break
		}
		if id != 0 && s.add(id) {
			dst = append(dst, id)
			n++
		}
	}
	return dst
}

// add puts id in the table, false when it was there.
func (s *idSet) add(id uint32) bool {
	const mask = 2*maxIDs - 1
	// Fibonacci hashing: the top idSetBits bits of the product index it.
	for i := (id * 0x9E3779B1) >> (32 - idSetBits) & mask; ; i = (i + 1) & mask {
		if s.gen[i] != s.cur {
			s.gen[i], s.slots[i] = s.cur, id
			return true
		}
		if s.slots[i] == id {
			return false
		}
	}
}
