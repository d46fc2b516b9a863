package bot

import "sync"

// Group is a set of bots sharing one server. Once one of them is done
// playing, those not given the world yet give up: they were waiting for a
// player slot (§10), and the one that frees now would start a second game
// after the first. The bot that is done tells the group before its
// Disconnect (§7.3) frees its slot, and a bot checks the group before it
// reads what the server sent, so none of them plays in that slot: the
// server may still promote one, which leaves at its next frame.
type Group struct {
	once sync.Once
	done chan struct{}
}

// NewGroup returns a group in which nobody is done playing yet.
func NewGroup() *Group { return &Group{done: make(chan struct{})} }

// leave records that a bot is done playing. A nil group ignores it.
func (g *Group) leave() {
	if g != nil {
		g.once.Do(func() { close(g.done) })
	}
}

// over reports whether a bot of the group is done playing; never for a nil
// group.
func (g *Group) over() bool {
	if g == nil {
		return false
	}
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}
