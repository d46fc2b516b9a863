package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §12, §13.4: SendBudget raised for a big world, as its doc says, or off
// (negative): a healthy client 50 ms away sent more than 63 packets per
// round trip still gets its entity messages, and a destruction reaches it.
func TestServer_12_13_4_BigWorldAnyBudget(t *testing.T) {
	for _, budget := range []int{0, 1024, -1} {
		t.Run("", func(t *testing.T) {
			d := newDuplex(t, ServerConfig{SendBudget: budget, DisableRejected: true}, ClientConfig{QueryRetry: -1}, 50*time.Millisecond)
			for range 3200 {
				d.srv.Spawn(rtype.ArchetypeLowGround, 10, 10, 0)
			}
			for range 300 { // 5 s to connect and receive the world
				d.step(nil)
			}
			id := d.srv.world.ents[5].id
			if _, ok := d.cli.Entity(id); !ok {
				t.Fatal("setup")
			}
			for i := range 300 {
				d.step(func(s *Server) {
					if i == 0 {
						_ = s.Destroy(id, rtype.DestroyGameplay)
					}
				})
			}
			if _, ghost := d.cli.Entity(id); ghost {
				t.Errorf("budget %d: DestroyEntity never sent to a healthy client: ghost", budget)
			}
		})
	}
}
