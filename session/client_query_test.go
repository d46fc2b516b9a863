package session

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §7.4: a client SHOULD send QueryEntity once for an id a Snapshot lists
// and it never received a CreateEntity for. Asking again is opt-in
// (QueryRetry > 0), and a client whose entity table is full asks nothing,
// since it would drop the answer.
func TestClient_7_4_QueryEntityOnce(t *testing.T) {
	type step struct {
		at   time.Duration // ms after connecting
		msgs []rtype.Message
	}
	// listed repeats a Snapshot listing ids every 100 ms for 3 s.
	listed := func(ids ...uint32) []step {
		var s []step
		for i := range 30 {
			s = append(s, step{time.Duration(i * 100), []rtype.Message{snapshot(uint32(3*i+3), ids...)}})
		}
		return s
	}
	tests := []struct {
		name    string
		cfg     ClientConfig
		steps   []step
		queries []uint32
	}{
		{"default asks once in 3 s", ClientConfig{}, listed(7), []uint32{7}},
		{"negative QueryRetry asks once", ClientConfig{QueryRetry: -1}, listed(7), []uint32{7}},
		{"QueryRetry 1 s asks again each second", ClientConfig{QueryRetry: time.Second}, listed(7), []uint32{7, 7, 7}},
		{"two ids, each once", ClientConfig{}, listed(7, 8), []uint32{7, 8}},
		{"full table asks nothing", ClientConfig{MaxEntities: 1},
			append([]step{{0, []rtype.Message{create(1, 1)}}}, listed(1, 7)...), nil},
		{"table filled before the query went out", ClientConfig{MaxEntities: 1},
			[]step{{0, []rtype.Message{snapshot(3, 7), create(1, 1)}}, {100, []rtype.Message{snapshot(6, 1, 7)}}}, nil},
		{"full table with QueryRetry asks nothing", ClientConfig{MaxEntities: 1, QueryRetry: 200 * time.Millisecond},
			append([]step{{0, []rtype.Message{create(1, 1)}}}, listed(1, 7)...), nil},
		{"room again: asked", ClientConfig{MaxEntities: 1},
			[]step{{0, []rtype.Message{create(1, 1), snapshot(3, 1, 7)}}, {100, []rtype.Message{rtype.DestroyEntity{ServerTick: 4, NetworkID: 1, Reason: 1}}}, {200, []rtype.Message{snapshot(6, 7)}}}, []uint32{7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cp := connectedClient(t, tt.cfg)
			var queries []uint32
			for i, s := range tt.steps {
				now := t0.Add(s.at * time.Millisecond)
				c.Receive(srv(t, uint32(i+1), s.msgs...), serverAddr, now)
				c.Update(now)
				if err := c.SendInput(0, now); err != nil {
					t.Fatal(err)
				}
				for _, m := range ofType(t, cp.take(), rtype.TypeQueryEntity) {
					var q rtype.QueryEntity
					if err := q.UnmarshalBinary(m.Payload); err != nil {
						t.Fatal(err)
					}
					queries = append(queries, q.NetworkID)
				}
			}
			if d := cmp.Diff(tt.queries, queries); d != "" {
				t.Errorf("QueryEntity (-want +got):\n%s", d)
			}
		})
	}
}
