package session

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §8.1, §7.4: a Snapshot moves every entity it lists and asks for every
// unknown id, whatever order it lists them in against the client's table:
// the table's order guides the lookups, it never decides what is found.
func TestClient_8_1_SnapshotAnyOrder(t *testing.T) {
	for _, tt := range []struct {
		name      string
		destroyed []uint32 // before the Snapshots: the table's order changes
		listed    [][]uint32
	}{
		{"table order", nil, [][]uint32{{1, 2, 3, 4, 5, 6, 7, 8}}},
		{"reversed", nil, [][]uint32{{8, 7, 6, 5, 4, 3, 2, 1}}},
		{"shuffled", nil, [][]uint32{{3, 1, 7, 2, 8, 5, 4, 6}}},
		{"runs broken by unknown ids", nil, [][]uint32{{1, 2, 90, 3, 4, 91, 5}}},
		{"from the middle, wrapping", nil, [][]uint32{{5, 6, 7, 8, 1, 2, 3, 4}}},
		{"every other", nil, [][]uint32{{2, 4, 6, 8}}},
		{"a round in two messages", nil, [][]uint32{{1, 2, 3, 4}, {5, 6, 7, 8}}},
		{"messages of a round swapped", nil, [][]uint32{{5, 6, 7, 8}, {1, 2, 3, 4}}},
		{"after a destruction", []uint32{3}, [][]uint32{{1, 2, 4, 5, 6, 7, 8}}},
		{"a destroyed id listed", []uint32{3}, [][]uint32{{1, 2, 3, 4, 5, 6, 7, 8}}},
	} {
		for _, cfg := range []ClientConfig{{}, {ExpireUnlisted: time.Minute}} {
			t.Run(fmt.Sprintf("%s, expiry %v", tt.name, cfg.ExpireUnlisted), func(t *testing.T) {
				c, _ := noPings(connectedClient(t, cfg))
				seq := uint32(1)
				for id := range uint32(8) {
					c.Receive(srv(t, seq, create(id+1, 1)), serverAddr, t0)
					seq++
				}
				for _, id := range tt.destroyed {
					c.Receive(srv(t, seq, rtype.DestroyEntity{ServerTick: 2, NetworkID: id}), serverAddr, t0)
					seq++
				}
				want := map[uint32]rtype.Pos16{}
				for id := range uint32(8) {
					if !slices.Contains(tt.destroyed, id+1) {
						want[id+1] = create(id+1, 1).X
					}
				}
				var unknown []uint32
				for round := range uint32(3) {
					tick := 10 + 3*round
					for _, ids := range tt.listed {
						s := rtype.Snapshot{ServerTick: tick}
						for _, id := range ids {
							x := rtype.Pos16(0x8000 + 16*tick + id)
							s.States = append(s.States, rtype.EntityState{NetworkID: id, X: x, Y: 0x8000})
							if _, known := want[id]; known {
								want[id] = x
							} else if round == 0 && !slices.Contains(tt.destroyed, id) {
								unknown = append(unknown, id)
							}
						}
						c.Receive(srv(t, seq, s), serverAddr, t0)
						seq++
					}
				}
				got := map[uint32]rtype.Pos16{}
				for e := range c.Entities() {
					got[e.ID] = rtype.PosFromPixels(e.X)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("positions (-want +got):\n%s", d)
				}
				var asked []uint32
				for _, q := range c.ents.queries {
					asked = append(asked, q.id)
				}
				if d := cmp.Diff(unknown, asked); d != "" {
					t.Errorf("ids asked for (-want +got):\n%s", d)
				}
			})
		}
	}
}
