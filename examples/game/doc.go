// Package game is the authoritative world of the example server: a small
// R-Type round played by up to four ships against Bydos, following the game
// rules of §10 and the Input semantics of §7.1.
//
// The world knows nothing about networking or time. It advances by one fixed
// tick per call to [World.Tick] (about 60 per second, §10) and changes only
// through [World.Join], [World.Leave] and [World.Input]. Everything a client
// must be told comes out as [Event] values: a spawn becomes a CreateEntity
// (§8.2), a destroy a DestroyEntity with its reason (§8.3), and every third
// tick asks for a Snapshot (§8.1). Given the same seed and the same calls, a
// World produces the same events, which is what its tests rely on.
package game
