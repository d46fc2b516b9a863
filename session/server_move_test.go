package session

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §8.1, §9: Move finds its entity whatever order a game moves them in
// against the world's table, refuses unknown and destroyed ids, and the
// world holds each position as the wire encodes it.
func TestServer_8_1_MoveAnyOrder(t *testing.T) {
	for _, order := range [][]uint32{
		{1, 2, 3, 4, 5, 6},
		{6, 5, 4, 3, 2, 1},
		{4, 1, 6, 2, 5, 3},
		{1, 2, 99, 3, 4, 5, 6},
		{5, 6, 1, 2, 3, 4},
		{2, 2, 2},
	} {
		t.Run(fmt.Sprint(order), func(t *testing.T) {
			s, _ := newServer(ServerConfig{})
			for i := range 6 {
				s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 0, 0)
			}
			if err := s.Destroy(3, rtype.DestroyGameplay); err != nil {
				t.Fatal(err)
			}
			want := map[uint32]Entity{}
			for e := range s.Entities() {
				want[e.ID] = e
			}
			for round := range 3 {
				for k, id := range order {
					x, y, rot := float64(100*round+k)+0.3, -float64(k)-0.6, float64(k)*0.7
					err := s.Move(id, x, y, rot)
					e, live := want[id]
					if !live {
						if err != ErrNoEntity {
							t.Fatalf("Move(%d) = %v, want ErrNoEntity", id, err)
						}
						continue
					}
					if err != nil {
						t.Fatalf("Move(%d) = %v", id, err)
					}
					p := rtype.PosFromPixels
					e.X, e.Y, e.Rotation = p(x).Pixels(), p(y).Pixels(), rtype.RotFromRadians(rot).Radians()
					want[id] = e
				}
			}
			got := map[uint32]Entity{}
			for e := range s.Entities() {
				got[e.ID] = e
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("world (-want +got):\n%s", d)
			}
			// Non-finite values are encoded as §9.1 and §9.2 say.
			if err := s.Move(2, math.NaN(), math.Inf(-1), math.Inf(1)); err != nil {
				t.Fatal(err)
			}
			if e, _ := s.Entity(2); e.X != 0 || e.Y != 0 || e.Rotation != 0 {
				t.Errorf("after a non-finite move: %+v, want 0, 0, 0", e)
			}
		})
	}
}
