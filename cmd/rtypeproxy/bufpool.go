package main

// heldBound is the most bytes of buffers the proxy holds for datagrams
// waiting to leave, whatever their number and size: past it a datagram is
// dropped (dropMemory) rather than held.
const heldBound = 16 << 20

// bufClasses are the buffer sizes, so that a small datagram does not hold a
// 64 KiB buffer; the last fits any UDP datagram.
var bufClasses = [...]int{256, 2048, 16384, 65536}

// bufPool recycles the buffers of held datagrams. The bytes of every
// buffer it made, in use or free, stay within bound; free ones of another
// size are let go to make room. Not safe for concurrent use.
type bufPool struct {
	free  [len(bufClasses)][][]byte
	total int // bytes of the buffers made and not let go
	bound int
}

// newBufPool is an empty pool whose buffers hold bound bytes at most.
func newBufPool(bound int) *bufPool { return &bufPool{bound: bound} }

// get returns a buffer of at least n bytes, ok false when the bound is
// reached.
func (p *bufPool) get(n int) (b []byte, ok bool) {
	c := classOf(n)
	if c < 0 {
		return nil, false
	}
	if f := p.free[c]; len(f) > 0 {
		b = f[len(f)-1]
		p.free[c] = f[:len(f)-1]
		return b[:n], true
	}
	size := bufClasses[c]
	for p.total+size > p.bound && p.releaseOther(c) {
	}
	if p.total+size > p.bound {
		return nil, false
	}
	p.total += size
	return make([]byte, n, size), true
}

// releaseOther lets go of one free buffer of a class other than c.
func (p *bufPool) releaseOther(c int) bool {
	for i := len(p.free) - 1; i >= 0; i-- {
		if f := p.free[i]; i != c && len(f) > 0 {
			p.free[i] = f[:len(f)-1]
			p.total -= bufClasses[i]
			return true
		}
	}
	return false
}

// put gives back a buffer get returned.
func (p *bufPool) put(b []byte) {
	c := classOf(cap(b))
	if c >= 0 && cap(b) == bufClasses[c] {
		p.free[c] = append(p.free[c], b[:0])
	}
}

// classOf is the smallest class that holds n bytes, -1 if none does.
func classOf(n int) int {
	for i, size := range bufClasses {
		if n <= size {
			return i
		}
	}
	return -1
}
