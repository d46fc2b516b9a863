package game

import "github.com/rtypeproto/rtype"

// Entity is one replicated object of the world: a ship, a missile or a Bydos.
// Positions are in pixels and rotations in radians; they are encoded only
// when sent (§9.1, §9.2).
type Entity struct {
	// ID is the network id, never 0 (§8.2).
	ID uint32
	// Archetype is the blueprint the entity is built from (§9.3).
	Archetype rtype.Archetype
	// X and Y are the position in pixels.
	X, Y float64
	// Rotation is the orientation in radians.
	Rotation float64
	// VX and VY are the velocity in pixels per second.
	VX, VY float64
	// Owner is the player whose ship or missile this is, 0 for a Bydos.
	Owner PlayerID
}

// CreateEntity describes e as the CreateEntity message of §8.2, at tick.
func (e *Entity) CreateEntity(tick uint32) rtype.CreateEntity {
	return rtype.CreateEntity{
		ServerTick: tick,
		NetworkID:  e.ID,
		EntityType: e.Archetype,
		X:          rtype.PosFromPixels(e.X),
		Y:          rtype.PosFromPixels(e.Y),
		Rotation:   rtype.RotFromRadians(e.Rotation),
	}
}

// State describes e as a Snapshot entity state, whose entityType is the low
// 8 bits of the archetype id (§8.1).
func (e *Entity) State() rtype.EntityState {
	return rtype.EntityState{
		NetworkID:  e.ID,
		EntityType: uint8(e.Archetype),
		X:          rtype.PosFromPixels(e.X),
		Y:          rtype.PosFromPixels(e.Y),
		Rotation:   rtype.RotFromRadians(e.Rotation),
	}
}

// Half sizes of the hit boxes, in pixels.
const (
	shipHalfW, shipHalfH       = 32.0, 16.0
	missileHalfW, missileHalfH = 16.0, 4.0
	enemyHalfW, enemyHalfH     = 24.0, 24.0
)
