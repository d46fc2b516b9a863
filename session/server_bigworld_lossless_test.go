package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §13.4: a world of 1000 entities on a loss-free link 50 ms away: more
// packets than the ack window in flight per round trip, yet every entity
// message is resolved by its ack, nothing is resent, and destroyed
// entities are purged.
func TestServer_13_4_BigWorldLosslessSettles(t *testing.T) {
	d := newDuplex(t, ServerConfig{}, ClientConfig{}, 50*time.Millisecond)
	for range 1000 {
		d.srv.Spawn(rtype.ArchetypeLowGround, 10, 10, 0)
	}
	for range 600 {
		d.step(nil)
	}
	var ids []uint32
	for i := range 50 {
		ids = append(ids, d.srv.world.ents[i*7].id)
	}
	for i := range 1200 { // 20 s
		d.step(func(s *Server) {
			if i == 0 {
				for _, id := range ids {
					_ = s.Destroy(id, rtype.DestroyGameplay)
				}
			}
		})
	}
	cs, _ := d.srv.ConnStats(d.cli.ConnectionID())
	ghosts := 0
	for _, id := range ids {
		if _, ok := d.cli.Entity(id); ok {
			ghosts++
		}
	}
	if d.srv.world.dead > 0 || cs.Pending > 0 || cs.Resends > 0 || ghosts > 0 {
		t.Errorf("lossless link: %d dead entities never purged, %d replicas pending, %d resends, %d ghosts after 20 s", d.srv.world.dead, cs.Pending, cs.Resends, ghosts)
	}
}
