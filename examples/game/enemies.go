package game

import (
	"math"

	"github.com/rtypeproto/rtype"
)

// spawnEnemies brings a Bydos every EnemyEvery ticks of a round, at the right
// of the playfield (x = 2000, as in §11.4), flying left at a height drawn
// from the world's seed.
func (w *World) spawnEnemies() {
	if (w.tick-w.roundSince)%EnemyEvery != 0 {
		return
	}
	n := 0
	for i := range w.entities {
		if w.entities[i].Archetype == rtype.ArchetypeEnemyBidos {
			n++
		}
	}
	if n >= MaxEnemies {
		return
	}
	y := enemyHalfH + w.rng.Float64()*(Height-2*enemyHalfH)
	w.spawn(Entity{
		Archetype: rtype.ArchetypeEnemyBidos,
		X:         EnemySpawnX,
		Y:         y,
		Rotation:  math.Pi,
		VX:        -EnemySpeed,
	})
}

// resolveHits removes, with reason 1 (§8.3), every Bydos hit by a missile
// together with that missile, and every Bydos that rams a ship. Ships are not
// destroyed: the example keeps every player in the round.
func (w *World) resolveHits() {
	for i := 0; i < len(w.entities); i++ {
		if w.entities[i].Archetype != rtype.ArchetypeEnemyBidos {
			continue
		}
		for j := range w.entities {
			e := &w.entities[j]
			if e.Owner == 0 || !overlap(&w.entities[i], e) {
				continue
			}
			// Removing the Bydos shifts the slice under e: read e first.
			other, missile := e.ID, e.Archetype == rtype.ArchetypeBullet
			w.remove(i, rtype.DestroyGameplay)
			if missile {
				w.remove(w.find(other), rtype.DestroyGameplay)
			}
			i = -1 // indices moved: rescan; the world is small
			break
		}
	}
}
