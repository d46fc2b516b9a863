package game

import (
	"math"

	"github.com/rtypeproto/rtype"
)

// spawnEnemies brings a Bydos every EnemyEvery ticks of a round, at the right
// of the playfield (x = 2000, as in §11.4), flying left at a height drawn
// from the world's seed.
func (w *World) spawnEnemies() {
	if (w.tick-w.roundSince)%EnemyEvery != 0 || len(w.bydos.bodies) >= MaxEnemies {
		return
	}
	y := enemyHalfH + w.rng.Float64()*(Height-2*enemyHalfH)
	w.spawn(Entity{Archetype: rtype.ArchetypeEnemyBidos, X: EnemySpawnX, Y: y})
}

// resolveHits removes, with reason 1 (§8.3), every Bydos that rams a ship,
// and every Bydos hit by a missile together with that missile, the
// highest on the screen where several hit it. Ships are not destroyed: the
// example keeps every player in the round.
func (w *World) resolveHits() {
	for i := 0; i < len(w.bydos.bodies); {
		b := &w.bydos.bodies[i]
		if w.rams(b) {
			w.removeAt(&w.bydos, i, rtype.DestroyGameplay)
			continue
		}
		if j := w.missiles.hit(b.x, b.y, enemyHalfW, enemyHalfH, missileHalfW, missileHalfH); j >= 0 {
			w.removeAt(&w.bydos, i, rtype.DestroyGameplay)
			w.removeAt(&w.missiles, j, rtype.DestroyGameplay)
			continue
		}
		i++
	}
}

// rams reports whether Bydos b overlaps a ship.
func (w *World) rams(b *body) bool {
	for s := range w.ships {
		e := &w.ships[s]
		if e.ID != 0 && math.Abs(b.x-e.X) < enemyHalfW+shipHalfW && math.Abs(b.y-e.Y) < enemyHalfH+shipHalfH {
			return true
		}
	}
	return false
}
