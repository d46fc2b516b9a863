package session

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// §12: a spoofed Hello costs the spoofed address one Welcome and nothing
// more. World traffic (CreateEntity, DestroyEntity, Snapshots, probes) goes
// only to a connection that has sent a valid connected packet; an address
// that got a Welcome and sent nothing gets nothing, and the whole world
// once its first packet arrives, within the 5 to 10 s its id verifies.
func TestServer_12_NoWorldTrafficBeforeFirstPacket(t *testing.T) {
	tests := []struct {
		name     string
		cfg      ServerConfig
		entities int
	}{
		{"100 entities", ServerConfig{}, 100},
		{"100 entities, reliable off", ServerConfig{ReliableEvents: Off}, 100},
		{"empty world", ServerConfig{}, 0},
		{"no snapshots", ServerConfig{SnapshotInterval: Off}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			for i := range tt.entities {
				s.Spawn(rtype.ArchetypeEnemyBidos, float64(i), 10, 0)
			}
			id := join(t, s, cp, addrA, t0)
			now := t0
			for range 300 { // 5 s: the id verifies in the next window
				now = now.Add(time.Second / 60)
				s.Tick(now)
				if i := s.Spawn(rtype.ArchetypeEnemyBidos, 1, 1, 0); i%2 == 0 {
					_ = s.Destroy(i, rtype.DestroyGameplay)
				}
			}
			if out := cp.to(addrA); len(out) != 0 {
				t.Fatalf("sent %d datagrams (%d bytes first) to a welcomed address that sent nothing", len(out), len(out[0].b))
			}
			s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, now)
			s.Tick(now.Add(time.Second / 60))
			got := len(ofType(t, cp.to(addrA), rtype.TypeCreateEntity))
			if want := s.NumEntities(); got != want {
				t.Errorf("after its first packet: %d CreateEntity, want %d (the world)", got, want)
			}
		})
	}
}
