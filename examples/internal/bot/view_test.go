package bot

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// A watched bot hands over, every frame, what its client holds: its own
// ship among the entities, player_blue as the only player holds slot 1
// (§9.3, §10), and the serverTick of the latest Snapshot (§8.1).
func TestBotWatch(t *testing.T) {
	t.Parallel()
	conn, stop, done := startServer(t)
	defer func() { stop(); <-done }()
	b := New(Config{Server: conn.LocalAddr().(*net.UDPAddr).AddrPort(), Name: "b", Duration: 600 * time.Millisecond})
	var views int
	var tick uint32
	ship := false
	b.Watch(func(v View) {
		views++
		tick = max(tick, v.Tick)
		for e := range v.Entities {
			ship = ship || e.Archetype == rtype.ArchetypePlayerBlue
		}
	})
	r := b.Run(context.Background())
	if !r.OK() {
		t.Fatalf("bot: %s: %s", r.Status(), r.Why())
	}
	// Run returned: the frames, and so the calls, are over.
	if views < r.Inputs || !ship || tick == 0 {
		t.Errorf("%d views for %d inputs, own ship seen %v, latest tick %d", views, r.Inputs, ship, tick)
	}
}
