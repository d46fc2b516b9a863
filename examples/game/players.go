package game

import "github.com/rtypeproto/rtype"

// PlayerID identifies a player; the server uses the connection id, which is
// never 0 (§4.3).
type PlayerID uint32

// player is a slot's player; its ship is the world's ships of the slot.
type player struct {
	id      PlayerID
	actions rtype.Actions
}

// Players returns the number of players joined.
func (w *World) Players() int {
	n := 0
	for i := range w.players {
		if w.players[i].id != 0 {
			n++
		}
	}
	return n
}

// Slot returns the slot of player id, 0 to 3.
func (w *World) Slot(id PlayerID) (int, bool) {
	for i := range w.players {
		if id != 0 && w.players[i].id == id {
			return i, true
		}
	}
	return -1, false
}

// Ship returns the network id of the ship of player id, 0 if it has none.
func (w *World) Ship(id PlayerID) uint32 {
	if s, ok := w.Slot(id); ok {
		return w.ships[s].ID
	}
	return 0
}

// Join gives player id the first free slot of four and spawns its ship, in
// the slot's colour, at x = 150, y = 150 + 100 n (§10). It returns false when
// id is 0, already joined, or every slot is taken; the world is then
// unchanged. The first player to join an empty lobby starts its 30-second
// timer (§10).
func (w *World) Join(id PlayerID) (slot int, ok bool) {
	if _, dup := w.Slot(id); dup || id == 0 {
		return -1, false
	}
	slot = -1
	for i := range w.players {
		if w.players[i].id == 0 {
			slot = i
			break
		}
	}
	if slot < 0 {
		return -1, false
	}
	if w.phase == Lobby && !w.lobbyTimer {
		w.lobbyTimer = true
		w.lobbySince = w.tick
	}
	w.players[slot] = player{id: id}
	x, y := SpawnPosition(slot)
	w.spawn(Entity{Archetype: ShipArchetype(slot), X: x, Y: y, Owner: id})
	return slot, true
}

// Leave removes player id: its ship is destroyed with reason 3, player
// disconnected (§7.3, §8.3). When it was the last player, the game ends:
// whatever remains is destroyed with reason 4 and the world goes back to the
// lobby (§10). It returns false for a player that had not joined.
func (w *World) Leave(id PlayerID) bool {
	slot, ok := w.Slot(id)
	if !ok {
		return false
	}
	w.removeShip(slot, rtype.DestroyPlayerDisconnected)
	w.players[slot] = player{}
	if w.Players() == 0 {
		w.clear(&w.missiles, rtype.DestroyGameEnded)
		w.clear(&w.bydos, rtype.DestroyGameEnded)
		w.lobbyTimer = false
		if w.phase == Playing {
			w.phase = Lobby
			w.emit(Event{Kind: EventLobby})
		}
	}
	return true
}

// Input applies the controls player id holds in one client frame (§7.1):
// they set the ship's velocity, Down and Right winning over their opposites
// and diagonals scaled by 0.7071, and a missile fires when Shoot goes from
// set to cleared. Ordering of inputs (inputSequence) is the session's
// business; Input takes each one as the newest. It returns false for a
// player that had not joined.
func (w *World) Input(id PlayerID, a rtype.Actions) bool {
	slot, ok := w.Slot(id)
	if !ok {
		return false
	}
	p := &w.players[slot]
	released := p.actions.Has(rtype.ActionShoot) && !a.Has(rtype.ActionShoot)
	p.actions = a
	ship := &w.ships[slot]
	if ship.ID == 0 {
		return true // after Shutdown
	}
	ship.VX, ship.VY = a.Velocity(ShipSpeed)
	if released {
		w.spawn(Entity{
			Archetype: rtype.ArchetypeBullet,
			X:         ship.X + shipHalfW,
			Y:         ship.Y,
			VX:        MissileSpeed,
			Owner:     id,
		})
	}
	return true
}
