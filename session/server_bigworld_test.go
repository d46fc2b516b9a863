package session

import (
	"fmt"
	"testing"

	"github.com/rtypeproto/rtype"
)

// §8.2, §10, §4.4: a new player is sent a CreateEntity for every entity of
// the world, and they all count against PendingEvents (§13.4). A world
// larger than that cannot be sent: the Hello is answered with Rejected (or
// dropped with Rejected off, §13.1), rather than with a Welcome followed at
// once by a silent close that leaves the client waiting for its timeout.
func TestServer_8_2_WorldLargerThanPendingEvents(t *testing.T) {
	tests := []struct {
		name     string
		entities int
		cfg      ServerConfig
		want     string
	}{
		{"world fits", 8, ServerConfig{PendingEvents: 8}, "Welcome, 1 players, joined 1, left 0, full drops 0"},
		{"world one too large", 9, ServerConfig{PendingEvents: 8}, "Rejected, 0 players, joined 0, left 0, full drops 0"},
		{"world too large, Rejected off", 9, ServerConfig{PendingEvents: 8, DisableRejected: true}, "nothing, 0 players, joined 0, left 0, full drops 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, cp := newServer(tt.cfg)
			for i := range tt.entities {
				s.Spawn(rtype.ArchetypeEnemyBidos, float64(10*i), 10, 0)
			}
			s.Receive(hello(), addrA, t0)
			answer := "nothing"
			for _, w := range cp.take() {
				typ, id, err := rtype.ParseHandshake(w.b)
				if err != nil {
					t.Fatalf("answered % x: %v", w.b, err)
				}
				answer = map[rtype.HandshakeType]string{rtype.HandshakeWelcome: "Welcome", rtype.HandshakeRejected: "Rejected"}[typ]
				if typ == rtype.HandshakeWelcome {
					s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 1}), addrA, t0)
				}
			}
			ev := events(s, 0)
			count := func(k EventKind) (n int) {
				for _, e := range ev {
					if e.Kind == k {
						n++
					}
				}
				return n
			}
			got := fmt.Sprintf("%s, %d players, joined %d, left %d, full drops %d", answer, s.NumPlayers(), count(EventPlayerJoined), count(EventPlayerLeft), s.Stats().Drops[DropServerFull])
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
