package wiredump

import "github.com/rtypeproto/rtype"

// maxOffers is how many ids welcomed to one address a Sides remembers while
// the client has taken none: a server that answers every repeated Hello
// (§4.2, §13) may give a new id each time, and the client takes the first
// Welcome it receives, which need not be the last one sent.
const maxOffers = 4

// offer is one id welcomed to an address, with the client's §5.2 window of
// the server's packets of that id, which the client keeps if it takes it.
type offer struct {
	id     uint32
	window rtype.SeqWindow
}

// offers are the ids welcomed to an address since its last connection,
// the last maxOffers of them, oldest first.
type offers struct {
	list [maxOffers]offer
	n    int
}

// add remembers id, forgetting the oldest when maxOffers are remembered;
// an id welcomed again keeps its window.
func (o *offers) add(id uint32) {
	if o.find(id) != nil {
		return
	}
	if o.n == maxOffers {
		copy(o.list[:], o.list[1:])
		o.n--
	}
	o.list[o.n] = offer{id: id}
	o.n++
}

// find returns the offer of id, nil if id was not welcomed.
func (o *offers) find(id uint32) *offer {
	for i := range o.list[:o.n] {
		if o.list[i].id == id {
			return &o.list[i]
		}
	}
	return nil
}
