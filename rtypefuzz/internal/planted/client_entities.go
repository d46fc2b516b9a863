package planted

// archetypes are the blueprints of §9.3, and sprites what the client
// draws for each, at the same index.
var (
	archetypes = [...]uint16{0xBD3E, 0x54EE, 0x8F7A, 0xFAD4, 0x4BED, 0x87FF, 0x7EAF, 0xA6A3, 0x189D, 0xBE70, 0x6C78, 0xFD72}
	sprites    = [len(archetypes)]sprite{"player_blue", "player_green", "player_pink", "player_red", "bullet",
		"enemyBidos", "low_ground", "medium_ground", "high_ground", "ramp", "reactor", "gate"}
)

// sprite is what the client draws for an entity.
type sprite string

// archetypeIndex returns the index of archetype id t, or -1.
func archetypeIndex(t uint16) int {
	for i, a := range archetypes {
		if a == t {
			return i
		}
	}
	return -1
}

// snapshot reads a Snapshot (§8.1).
func (c *client) snapshot(p []byte) {
	if c.bug == SnapshotCount {
		c.snapshotTrusting(p)
		return
	}
	if len(p) < 6 {
		return
	}
	n := int(be.Uint16(p[4:]))
	if n > maxStates || len(p) != 6+stateSize*n {
		return
	}
	for i := range n {
		c.states[i] = readState(p[6+stateSize*i:])
		if c.states[i].id == 0 || c.listed(i) {
			return // id 0, or twice: the whole Snapshot
		}
	}
	c.apply(c.states[:n])
}

// listed reports whether state i's id is one of the states before it.
func (c *client) listed(i int) bool {
	for _, s := range c.states[:i] {
		if s.id == c.states[i].id {
			return true
		}
	}
	return false
}

// snapshotTrusting is the SnapshotCount bug: entityCount is believed, and
// count states are read into the array of 47 from the receive buffer,
// garbage past the datagram included, as C reads on past a payload. The
// 48th state writes out of range.
func (c *client) snapshotTrusting(p []byte) {
	if len(p) < 6 {
		return
	}
	n := int(be.Uint16(p[4:]))
	for i := range n {
		off := 6 + stateSize*i
		c.states[i] = readState(p[off : off+stateSize])
	}
	c.apply(c.states[:n])
}

func readState(b []byte) state {
	return state{id: be.Uint32(b), kind: b[4], x: be.Uint16(b[5:]), y: be.Uint16(b[7:]), rot: be.Uint16(b[9:])}
}

// apply moves the entities the states list, and queries the ids it does
// not know (§7.4), once each.
func (c *client) apply(states []state) {
	for _, s := range states {
		if _, ok := c.known[s.id]; ok || s.id == 0 || c.asked[s.id] || len(c.asked) >= maxAsked {
			continue
		}
		c.asked[s.id] = true
		c.pending = append(c.pending, s.id)
	}
}

// create reads a CreateEntity (§8.2): exactly 16 bytes, id not 0, a known
// id ignored, an unknown archetype ignored (§9.3).
func (c *client) create(p []byte) {
	if len(p) != createSize {
		return
	}
	id, t := be.Uint32(p[4:]), be.Uint16(p[8:])
	if _, ok := c.known[id]; ok || id == 0 || len(c.known) >= maxKnown {
		return
	}
	if c.bug == Archetype {
		// The Archetype bug: a miss is -1, and indexes the sprites.
		c.known[id] = sprites[archetypeIndex(t)]
		return
	}
	if i := archetypeIndex(t); i >= 0 {
		c.known[id] = sprites[i]
	}
}

// destroy reads a DestroyEntity (§8.3): exactly 9 bytes, id not 0,
// reason at most 4. The id goes to asked, so that a late Snapshot still
// listing it does not query it again.
func (c *client) destroy(p []byte) {
	if len(p) != destroySize || be.Uint32(p[4:]) == 0 || p[8] > maxReason {
		return
	}
	id := be.Uint32(p[4:])
	if _, ok := c.known[id]; ok && len(c.asked) < maxAsked {
		c.asked[id] = true
	}
	delete(c.known, id)
}
