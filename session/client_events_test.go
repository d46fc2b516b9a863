package session

import (
	"fmt"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §8.1, §8.2, §8.3: a burst of Snapshots never pushes an unread
// EntityCreated or EntityDestroyed out of a full event queue: positions
// are droppable, since the next Snapshot carries them again.
func TestClient_8_1_MovesNeverEvictEntityEvents(t *testing.T) {
	tests := []struct {
		queue, snapshots int
	}{
		{3, 10},
		{4, 1},
		{8, 50},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("queue %d, %d snapshots", tt.queue, tt.snapshots), func(t *testing.T) {
			c, _ := connectedClient(t, ClientConfig{EventQueue: tt.queue})
			bidos := rtype.ArchetypeEnemyBidos
			seq := uint32(1)
			c.Receive(packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq},
				rtype.CreateEntity{ServerTick: 1, NetworkID: 1, EntityType: rtype.ArchetypeEnemyBidos},
				rtype.CreateEntity{ServerTick: 1, NetworkID: 2, EntityType: rtype.ArchetypeEnemyBidos},
				rtype.CreateEntity{ServerTick: 1, NetworkID: 3, EntityType: rtype.ArchetypeEnemyBidos}), serverAddr, t0)
			for i := range tt.snapshots {
				seq++
				low := uint8(bidos) // a Snapshot carries the low 8 bits (§8.1)
				st := []rtype.EntityState{{NetworkID: 1, EntityType: low, X: rtype.Pos16(i)}, {NetworkID: 2, EntityType: low}}
				c.Receive(packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq}, rtype.Snapshot{ServerTick: uint32(2 + i), States: st}), serverAddr, t0)
			}
			seq++
			c.Receive(packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq},
				rtype.DestroyEntity{ServerTick: 99, NetworkID: 3, Reason: rtype.DestroyGameplay}), serverAddr, t0)
			var created, destroyed int
			for _, e := range events(c, 0) {
				switch e.Kind {
				case EventEntityCreated:
					created++
				case EventEntityDestroyed:
					destroyed++
				}
			}
			if want := min(3, tt.queue-1); created != want || destroyed != 1 {
				t.Errorf("%d EntityCreated and %d EntityDestroyed read, want %d and 1", created, destroyed, want)
			}
		})
	}
}
