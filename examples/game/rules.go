package game

import "github.com/rtypeproto/rtype"

// Game rules of §10.
const (
	// TickRate is the number of ticks per second: about 60 (§10).
	TickRate = 60
	// SnapshotEvery is the number of ticks between two Snapshots: one every
	// 3 ticks, about 20 per second (§8.1, §10).
	SnapshotEvery = 3
	// MaxPlayers is the number of player slots, one ship colour each (§10).
	MaxPlayers = 4
	// PlayersToStart is how many connected players start a round at once
	// (§10).
	PlayersToStart = 2
	// LobbyWait is how many ticks after the first player joined a round
	// starts even if that player is still alone: 30 seconds (§10).
	LobbyWait = 30 * TickRate
)

// Spawn position of slot n, 0 to 3: x = 150, y = 150 + 100 n (§10).
const (
	SpawnX     = 150.0
	SpawnY     = 150.0
	SpawnSlotY = 100.0
)

// Playfield of the example game, in pixels (§9.1: origin top left, y
// downwards). Ships stay on the Width×Height screen; missiles and Bydos live
// until they leave it by more than Margin, so that Bydos can appear at
// EnemySpawnX, off the right edge, as in §11.4.
const (
	Width       = 1920.0
	Height      = 1080.0
	Margin      = 128.0
	EnemySpawnX = 2000.0
)

// Speeds in pixels per second.
const (
	ShipSpeed    = 300.0
	MissileSpeed = 900.0
	EnemySpeed   = 180.0
)

// EnemyEvery is the number of ticks between two Bydos during a round, and
// MaxEnemies bounds how many fly at once, which keeps every Snapshot of a
// full world within two messages (§8.1).
const (
	EnemyEvery = TickRate
	MaxEnemies = 32
)

// shipArchetypes gives each slot its ship colour (§9.3, §10).
var shipArchetypes = [MaxPlayers]rtype.Archetype{
	rtype.ArchetypePlayerBlue,
	rtype.ArchetypePlayerGreen,
	rtype.ArchetypePlayerPink,
	rtype.ArchetypePlayerRed,
}

// ShipArchetype returns the ship blueprint of slot n (0 to 3): player_blue,
// player_green, player_pink and player_red (§9.3, §10).
func ShipArchetype(slot int) rtype.Archetype {
	return shipArchetypes[slot]
}

// SpawnPosition returns where the ship of slot n (0 to 3) appears: x = 150,
// y = 150 + 100 n (§10).
func SpawnPosition(slot int) (x, y float64) {
	return SpawnX, SpawnY + SpawnSlotY*float64(slot)
}
