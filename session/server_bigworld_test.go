package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §8.2, §10, §13.4: a new player is sent a CreateEntity for every entity of
// the world, streamed from the world table as the acks let it, however
// large the world: no log of messages to outgrow, no Rejected because of
// the world's size.
func TestServer_8_2_NewPlayerGetsAnyWorld(t *testing.T) {
	for _, n := range []int{0, 1, 47, 1025, 2500} {
		t.Run(fmt.Sprint(n, " entities"), func(t *testing.T) {
			d := newDuplex(t, ServerConfig{}, ClientConfig{}, 10*time.Millisecond)
			for i := range n {
				d.srv.Spawn(rtype.ArchetypeEnemyBidos, float64(i%2000), float64(i/2000), 0)
			}
			for range 60 {
				d.step(nil)
			}
			if d.cli.State() != Playing || d.srv.NumPlayers() != 1 {
				t.Fatalf("client %v, %d players", d.cli.State(), d.srv.NumPlayers())
			}
			if diff := cmp.Diff(d.serverIDs(), d.clientIDs()); diff != "" {
				t.Errorf("%d entities: client entities (-server +client):\n%s", n, diff)
			}
			if p, _ := d.srv.ConnStats(d.cli.ConnectionID()); p.Pending != 0 {
				t.Errorf("%d entities: %d still pending", n, p.Pending)
			}
		})
	}
}
