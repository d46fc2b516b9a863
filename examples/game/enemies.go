package game

import (
	"math"

	"github.com/rtypeproto/rtype"
)

// spawnEnemies brings a Bydos every EnemyEvery ticks of a round, at the right
// of the playfield (x = 2000, as in §11.4), flying left at a height drawn
// from the world's seed.
func (w *World) spawnEnemies() {
	if (w.tick-w.roundSince)%EnemyEvery != 0 || len(w.bydos) >= MaxEnemies {
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

// resolveHits removes, with reason 1 (§8.3), every Bydos that rams a ship,
// and every Bydos hit by a missile together with that missile, the
// oldest missile where several hit it. Ships are not destroyed: the
// example keeps every player in the round.
func (w *World) resolveHits() {
	for i := 0; i < len(w.bydos); {
		b := &w.bydos[i]
		if w.rams(b) {
			w.removeAt(&w.bydos, i, rtype.DestroyGameplay)
			continue
		}
		if j := w.hitBy(b); j >= 0 {
			w.removeAt(&w.bydos, i, rtype.DestroyGameplay)
			w.removeAt(&w.missiles, j, rtype.DestroyGameplay)
			continue
		}
		i++
	}
}

// rams reports whether Bydos b overlaps a ship.
func (w *World) rams(b *Entity) bool {
	for s := range w.ships {
		e := &w.ships[s]
		if e.ID != 0 && math.Abs(b.X-e.X) < enemyHalfW+shipHalfW && math.Abs(b.Y-e.Y) < enemyHalfH+shipHalfH {
			return true
		}
	}
	return false
}

// hitBy returns the index of the oldest missile overlapping Bydos b, or -1.
func (w *World) hitBy(b *Entity) int {
	for j := range w.missiles {
		m := &w.missiles[j]
		if math.Abs(b.X-m.X) < enemyHalfW+missileHalfW && math.Abs(b.Y-m.Y) < enemyHalfH+missileHalfH {
			return j
		}
	}
	return -1
}
