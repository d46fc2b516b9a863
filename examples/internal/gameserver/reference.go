package gameserver

import (
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/game"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// Reference returns the reference game as a match of a host: what every
// version 1 game must do and no more, so that what a host spends on it is
// the toolkit's own cost. A ship per player in its slot's colour at its
// spawn position (§10), spawned for its connection so that the session
// destroys it with reason 3 when the player leaves (§7.3, §8.3), moved by
// the player's Input (§7.1) within the encodable range (§9.1). The session
// configuration is the example game's: SnapshotInterval and MaxPlayers of
// §10 where cfg leaves them 0.
func Reference(cfg session.ServerConfig) host.Match {
	r := &reference{}
	cfg = sessionDefaults(cfg)
	r.every = cfg.SnapshotInterval
	return host.Match{Session: cfg, Tick: r.step}
}

// reference is the reference game's world: its ships by slot.
type reference struct {
	ships [game.MaxPlayers]refShip
	every int
}

// refShip is a player's ship; conn 0 marks a free slot.
type refShip struct {
	conn, id uint32
	x, y     float64
	actions  rtype.Actions
}

// step is the reference game's tick: the session's events, then each
// ship one tick further, its position pushed when a message carries it.
func (r *reference) step(s *session.Server, _ time.Time) {
	push := snapshotDue(s, r.every)
	for ev := range s.Events() {
		switch ev.Kind {
		case session.EventPlayerJoined:
			push = true // the newcomer's CreateEntity messages carry positions
			r.join(s, ev.Conn, int(ev.Slot))
		case session.EventPlayerLeft:
			if sh := r.ship(ev.Conn); sh != nil {
				*sh = refShip{} // the session destroyed its ship
			}
		case session.EventInput:
			if sh := r.ship(ev.Conn); sh != nil {
				sh.actions = ev.Input.Actions
			}
		case session.EventQueryEntity:
			push = true
		}
	}
	const dt = 1.0 / game.TickRate
	for i := range r.ships {
		sh := &r.ships[i]
		if sh.conn == 0 {
			continue
		}
		vx, vy := sh.actions.Velocity(game.ShipSpeed)
		sh.x = min(max(sh.x+vx*dt, rtype.MinPosition), rtype.MaxPosition)
		sh.y = min(max(sh.y+vy*dt, rtype.MinPosition), rtype.MaxPosition)
		if push {
			_ = s.Move(sh.id, sh.x, sh.y, 0)
		}
	}
}

// join spawns the ship of connection conn in slot, if the slot is one of
// the game's.
func (r *reference) join(s *session.Server, conn uint32, slot int) {
	if slot < 0 || slot >= len(r.ships) {
		return
	}
	x, y := game.SpawnPosition(slot)
	id, err := s.SpawnFor(conn, game.ShipArchetype(slot), x, y, 0)
	if err != nil {
		return // the player left in the same tick
	}
	r.ships[slot] = refShip{conn: conn, id: id, x: x, y: y}
}

// ship returns connection conn's ship, nil if it has none.
func (r *reference) ship(conn uint32) *refShip {
	for i := range r.ships {
		if r.ships[i].conn == conn {
			return &r.ships[i]
		}
	}
	return nil
}
