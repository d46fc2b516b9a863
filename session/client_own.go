package session

import "github.com/rtypeproto/rtype"

// clientOwn is the client's answer to §13.5, which ship is its own: the
// wire never says, but §10's order does, as the server sends the world a
// player joins, then that player's ship. So the newest player ship (§9.3)
// created since the Welcome is the own one until a Snapshot newer than
// its creation lists no entity the client lacks: the world was complete,
// and a player ship created later is another player's. A lost creation
// keeps it open until the entity comes, resent (§13.4) or asked for
// (§7.4). When the own ship is destroyed (or expires), the next player
// ship created is the own one: a respawn. It is a guess: a server spawning
// the ship after another player's, or a game respawning every ship at
// once, fools it.
type clientOwn struct {
	id    uint32
	tick  uint32 // its CreateEntity's
	fixed bool
}

// isShip reports whether a is a player ship's archetype (§9.3).
func isShip(a rtype.Archetype) bool {
	switch a {
	case rtype.ArchetypePlayerBlue, rtype.ArchetypePlayerGreen, rtype.ArchetypePlayerPink, rtype.ArchetypePlayerRed:
		return true
	}
	return false
}

// created takes an accepted CreateEntity and reports whether the own ship
// changed.
func (o *clientOwn) created(m rtype.CreateEntity) bool {
	if !isShip(m.EntityType) || o.fixed {
		return false
	}
	o.id, o.tick = m.NetworkID, m.ServerTick
	return true
}

// snapshot takes a Snapshot's tick, and whether it listed only entities
// the client holds: one newer than the creation then fixes the own ship.
func (o *clientOwn) snapshot(tick uint32, complete bool) {
	if o.id != 0 && complete && rtype.SequenceNewer(tick, o.tick) {
		o.fixed = true
	}
}

// gone takes an entity's removal: the own ship's leaves none known.
func (o *clientOwn) gone(id uint32) {
	if id != 0 && id == o.id {
		*o = clientOwn{}
	}
}

// OwnShip returns the network id of the client's own ship, by this
// project's answer to §13.5: the newest player ship (§9.3) created after
// the client joined, until a newer Snapshot lists nothing the client
// lacks, since the server sends the world, then the new player's ship
// (§10); or the next created once it is destroyed. It is false while no
// such ship is known. A server that does not follow §10's order can make
// it wrong; nothing on the wire can check it.
func (c *Client) OwnShip() (uint32, bool) { return c.own.id, c.own.id != 0 }

// setOwn tells the view which ship is the own one.
func (c *Client) setOwn() {
	if v := c.cfg.View; v != nil {
		v.Own(c.own.id)
	}
}
