package wiredump

import "net/netip"

// recency lists remembered client addresses, least recently welcomed or
// heard from first, through links in their conns: moving one to the back,
// forgetting one or the front costs no allocation and no search.
type recency struct {
	front, back *conn
	n           int
}

// pushBack puts c, in no list, at the back.
func (r *recency) pushBack(c *conn) {
	c.prev, c.next, c.in = r.back, nil, r
	if r.back != nil {
		r.back.next = c
	} else {
		r.front = c
	}
	r.back = c
	r.n++
}

// remove takes c out of r, which holds it.
func (r *recency) remove(c *conn) {
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		r.front = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		r.back = c.prev
	}
	c.prev, c.next, c.in = nil, nil, nil
	r.n--
}

// moveBack moves c, in any list, to the back of r.
func (r *recency) moveBack(c *conn) {
	if c.in == r && r.back == c {
		return
	}
	if c.in != nil {
		c.in.remove(c)
	}
	r.pushBack(c)
}

// link is what a conn carries for its place in a recency list: its address,
// to forget it from the map, the list and its neighbours there.
type link struct {
	addr       netip.AddrPort
	in         *recency
	prev, next *conn
}
