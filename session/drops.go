package session

import (
	"iter"
	"strconv"
)

// Drops counts drops by reason, a plain value read without allocating.
// Reasons added later grow it without changing its methods.
type Drops struct {
	n [numDropReasons]uint64
}

// Count returns the drops of reason r.
func (d Drops) Count(r DropReason) uint64 {
	if r < numDropReasons {
		return d.n[r]
	}
	return 0
}

// Total returns the number of drops of every reason.
func (d Drops) Total() uint64 {
	var n uint64
	for _, v := range d.n {
		n += v
	}
	return n
}

// Add adds o's drops to d.
func (d *Drops) Add(o *Drops) {
	for r, v := range o.n {
		d.n[r] += v
	}
}

// All yields every reason, in order, with its count, zero or not.
func (d Drops) All() iter.Seq2[DropReason, uint64] {
	return func(yield func(DropReason, uint64) bool) {
		for r, v := range d.n {
			if !yield(DropReason(r), v) {
				return
			}
		}
	}
}

// String lists the reasons counted, as Key=count; "none" when none is.
func (d Drops) String() string {
	var b []byte
	for r, v := range d.n {
		if v != 0 {
			if b != nil {
				b = append(b, ' ')
			}
			b = append(b, DropReason(r).Key()...)
			b = append(b, '=')
			b = strconv.AppendUint(b, v, 10)
		}
	}
	if b == nil {
		return "none"
	}
	return string(b)
}

// Equal reports whether d and o count the same drops (go-cmp uses it).
func (d Drops) Equal(o Drops) bool { return d == o }

// add counts one drop of r.
func (d *Drops) add(r DropReason) { d.n[r]++ }
