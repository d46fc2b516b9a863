package session

import "fmt"

// check verifies the entity table's invariants: one replica per entity and
// slot, the live and dead counts, the index, and that a dead entity is kept
// only while some client may hold it or has a copy in flight (§13.4).
func (w *world) check() error {
	if len(w.reps) != len(w.ents)*w.slots || w.index.n != len(w.ents) {
		return fmt.Errorf("%d entities, %d replicas for %d slots, %d indexed", len(w.ents), len(w.reps), w.slots, w.index.n)
	}
	live, dead := 0, 0
	for i := range w.ents {
		e := &w.ents[i]
		if j, ok := w.index.get(e.id); !ok || int(j) != i || e.id == 0 {
			return fmt.Errorf("entity %d at %d indexed at %d", e.id, i, j)
		}
		if !e.dead {
			live++
			continue
		}
		dead++
		for k := range w.slots {
			if r := w.rep(i, k); r.phase == repPending || r.phase == repCreating || r.phase == repHeld {
				return fmt.Errorf("dead entity %d in phase %d for slot %d", e.id, r.phase, k)
			}
		}
	}
	if live != w.live || dead != w.dead {
		return fmt.Errorf("%d live and %d dead, counted %d and %d", live, dead, w.live, w.dead)
	}
	return nil
}
