package main

import (
	"slices"
	"testing"

	"github.com/rtypeproto/rtype"
)

// created reads messages until a CreateEntity and decodes it.
func (c *client) created() rtype.CreateEntity {
	c.t.Helper()
	var ce rtype.CreateEntity
	if err := ce.UnmarshalBinary(c.next("CreateEntity", is(rtype.TypeCreateEntity)).Payload); err != nil {
		c.t.Fatal(err)
	}
	return ce
}

// position reads Snapshots until one lists ship id, and returns its state.
func (c *client) position(id uint32) rtype.EntityState {
	c.t.Helper()
	var snap rtype.Snapshot
	c.next("Snapshot listing the ship", func(m rtype.RawMessage) bool {
		if m.Type != rtype.TypeSnapshot {
			return false
		}
		if err := snap.UnmarshalBinary(m.Payload); err != nil {
			c.t.Fatalf("Snapshot % x: %v", m.Payload, err)
		}
		for _, st := range snap.States {
			if st.NetworkID == id {
				return true
			}
		}
		return false
	})
	for _, st := range snap.States {
		if st.NetworkID == id {
			return st
		}
	}
	return rtype.EntityState{}
}

// ping sends a Ping with what msgs and waits for its Pong: the server has
// handled them.
func (c *client) ping(ts uint32, msgs ...rtype.Message) {
	c.t.Helper()
	c.send(append(msgs, rtype.Ping{Timestamp: ts})...)
	c.next("Pong", func(m rtype.RawMessage) bool {
		var p rtype.Pong
		return m.Type == rtype.TypePong && p.UnmarshalBinary(m.Payload) == nil && p.Timestamp == ts
	})
}

// px decodes a position.
func px(p rtype.Pos16) float64 { return p.Pixels() }

// TestShip: stage 4 creates each player's ship at its slot's spawn for
// everyone (§8.2, §10), moves it by Input (§7.1) in Snapshots (§8.1),
// answers QueryEntity (§7.4) and destroys a leaver's ship for the others
// with reason 3 (§7.3).
func TestShip(t *testing.T) {
	_, addr := start(t, config{stage: stageShip})
	a, b := dial(t, addr), dial(t, addr)
	a.welcome()
	blue := a.created()
	if blue.EntityType != rtype.ArchetypePlayerBlue || px(blue.X) != 150 || px(blue.Y) != 150 {
		t.Errorf("slot 0's ship: %v at (%v, %v), want player_blue at (150, 150)", blue.EntityType, px(blue.X), px(blue.Y))
	}
	b.welcome()
	if got := b.created(); got.NetworkID != blue.NetworkID {
		t.Errorf("the second player's first CreateEntity is of %d, want the first ship, %d", got.NetworkID, blue.NetworkID)
	}
	green := b.created()
	if green.EntityType != rtype.ArchetypePlayerGreen || px(green.X) != 150 || px(green.Y) != 250 || green.NetworkID == blue.NetworkID {
		t.Errorf("slot 1's ship %d: %v at (%v, %v), want player_green at (150, 250)", green.NetworkID, green.EntityType, px(green.X), px(green.Y))
	}
	if got := a.created(); got != green {
		t.Errorf("the first player got %+v for the second ship, want %+v", got, green)
	}
	if st := a.position(green.NetworkID); st.EntityType != uint8(rtype.ArchetypePlayerGreen&0xFF) || px(st.Y) != 250 {
		t.Errorf("the second ship in a Snapshot: %+v", st)
	}

	// Right: x grows, y stays. Then Left with a stale inputSequence: dropped.
	a.ping(1, rtype.Input{InputSequence: 10, Actions: rtype.ActionRight})
	x0 := px(a.position(blue.NetworkID).X)
	st := a.position(blue.NetworkID)
	if px(st.X) <= x0 || px(st.Y) != 150 {
		t.Errorf("holding Right: the ship went from x %v to (%v, %v)", x0, px(st.X), px(st.Y))
	}
	a.ping(2, rtype.Input{InputSequence: 10, Actions: rtype.ActionLeft}, rtype.Input{InputSequence: 9, Actions: rtype.ActionLeft})
	x0 = px(a.position(blue.NetworkID).X)
	if x := px(a.position(blue.NetworkID).X); x <= x0 {
		t.Errorf("after stale Inputs holding Left: x %v then %v, want it still growing", x0, x)
	}
	// Up and Down: Down wins; a wrapped inputSequence is newer.
	a.ping(3, rtype.Input{InputSequence: 0x80000009, Actions: rtype.ActionRight}, rtype.Input{InputSequence: 0xFFFFFFF0, Actions: rtype.ActionRight})
	a.ping(4, rtype.Input{InputSequence: 3, Actions: rtype.ActionUp | rtype.ActionDown})
	y0 := px(a.position(blue.NetworkID).Y)
	st = a.position(blue.NetworkID)
	if px(st.Y) <= y0 {
		t.Errorf("holding Up and Down: y %v then %v, want it growing", y0, px(st.Y))
	}

	// QueryEntity: the ship that exists is described, to the asker alone.
	b.send(rtype.QueryEntity{NetworkID: 999}, rtype.RawMessage{Type: rtype.TypeQueryEntity, Payload: make([]byte, 4)}, rtype.Ping{Timestamp: 5})
	b.next("Pong", func(m rtype.RawMessage) bool {
		if m.Type == rtype.TypeCreateEntity {
			t.Errorf("QueryEntity of ids 999 and 0 answered with a CreateEntity % x", m.Payload)
		}
		return m.Type == rtype.TypePong
	})
	b.send(rtype.QueryEntity{NetworkID: blue.NetworkID})
	if got := b.created(); got.NetworkID != blue.NetworkID || got.EntityType != rtype.ArchetypePlayerBlue {
		t.Errorf("QueryEntity of ship %d answered with %+v", blue.NetworkID, got)
	}

	// Disconnect: the other player gets DestroyEntity, reason 3.
	b.send(rtype.Disconnect{Reason: rtype.DisconnectClientQuit})
	var d rtype.DestroyEntity
	if err := d.UnmarshalBinary(a.next("DestroyEntity", is(rtype.TypeDestroyEntity)).Payload); err != nil {
		t.Fatal(err)
	}
	if d.NetworkID != green.NetworkID || d.Reason != rtype.DestroyPlayerDisconnected {
		t.Errorf("after the second player's Disconnect: %+v, want ship %d destroyed with reason 3", d, green.NetworkID)
	}
}

// TestSpectator: a fifth player is welcomed with the world and Snapshots
// but no ship; a slot freed goes to the next player to join (§10).
func TestSpectator(t *testing.T) {
	_, addr := start(t, config{stage: stageShip})
	var ps [maxPlayers + 1]*client
	for i := range ps {
		ps[i] = dial(t, addr)
		ps[i].welcome()
	}
	fifth := ps[maxPlayers]
	var ids []uint32
	for range maxPlayers {
		ids = append(ids, fifth.created().NetworkID)
	}
	var snap rtype.Snapshot
	_ = snap.UnmarshalBinary(fifth.next("Snapshot", is(rtype.TypeSnapshot)).Payload)
	var listed []uint32
	for _, st := range snap.States {
		listed = append(listed, st.NetworkID)
	}
	if !slices.Equal(listed, ids) {
		t.Errorf("the spectator's Snapshot lists ships %v, want the %v it was told of", listed, ids)
	}
	ps[2].send(rtype.Disconnect{})
	next := dial(t, addr)
	next.welcome()
	var pink rtype.CreateEntity
	for range maxPlayers {
		pink = next.created()
	}
	if pink.EntityType != rtype.ArchetypePlayerPink || px(pink.Y) != 350 {
		t.Errorf("slot 2 freed, the next player's ship: %v at y %v, want player_pink at 350", pink.EntityType, px(pink.Y))
	}
}
