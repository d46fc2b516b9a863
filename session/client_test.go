package session

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

func newClient(cfg ClientConfig) (*Client, *capture) {
	cp := &capture{}
	return NewClient(serverAddr, cfg, cp.send), cp
}

// noPings keeps Pings out of the packets c sends for a day, for a test
// that reads them message by message.
func noPings(c *Client, cp *capture) (*Client, *capture) {
	c.nextPing = t0.Add(24 * time.Hour)
	return c, cp
}

// connectedClient returns a client that accepted Welcome with id 5 at t0.
func connectedClient(t *testing.T, cfg ClientConfig) (*Client, *capture) {
	t.Helper()
	c, cp := newClient(cfg)
	c.Update(t0)
	c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
	if !c.State().Connected() {
		t.Fatalf("state %v after Welcome", c.State())
	}
	events(c, 0)
	cp.take()
	return c, cp
}

// §4.2: Hello every second until Welcome or Rejected, give up after
// GiveUp.
func TestClient_4_2_SendsHelloUntilGiveUp(t *testing.T) {
	tests := []struct {
		cfg           ClientConfig
		hellos        int
		gaveUpAtLeast time.Duration
	}{
		{ClientConfig{}, 10, 10 * time.Second},
		{ClientConfig{GiveUp: 2500 * time.Millisecond}, 3, 2500 * time.Millisecond},
	}
	for _, tt := range tests {
		c, cp := newClient(tt.cfg)
		var gaveUp time.Duration
		for ms := time.Duration(0); ms <= 12*time.Second; ms += 10 * time.Millisecond {
			c.Update(t0.Add(ms))
			if c.State() == Closed && gaveUp == 0 {
				gaveUp = ms
			}
		}
		out := cp.take()
		for _, w := range out {
			if w.to != serverAddr || string(w.b) != string(hello()) {
				t.Fatalf("sent % x to %v, want Hello to the server", w.b, w.to)
			}
		}
		if len(out) != tt.hellos || gaveUp != tt.gaveUpAtLeast {
			t.Errorf("%+v: %d Hellos, gave up at %v; want %d, %v", tt.cfg, len(out), gaveUp, tt.hellos, tt.gaveUpAtLeast)
		}
		if ev := events(c, EventTimedOut); len(ev) != 1 || ev[0].Close != CloseGaveUp {
			t.Errorf("events %v", ev)
		}
	}
}

// §4.3, §4.4, §3: which handshake datagrams a connecting client accepts.
func TestClient_4_3_AcceptsOnlyValidWelcome(t *testing.T) {
	other := addrA
	tests := []struct {
		name  string
		b     []byte
		from  any
		state State
		event ClientEventKind
		drop  DropReason
	}{
		{"welcome", rtype.AppendWelcome(nil, 5), nil, Waiting, EventConnected, 0},
		{"welcome 11 bytes", append(rtype.AppendWelcome(nil, 5), 0), nil, Connecting, 0, DropHandshakeSize},
		{"welcome 9 bytes", rtype.AppendWelcome(nil, 5)[:9], nil, Connecting, 0, DropHandshakeSize},
		{"welcome id 0", append(rtype.AppendWelcome(nil, 5)[:6], 0, 0, 0, 0), nil, Connecting, 0, DropZeroConnectionID},
		{"welcome from another port", rtype.AppendWelcome(nil, 5), other, Connecting, 0, DropNotFromServer},
		{"rejected", rtype.AppendRejected(nil), nil, Closed, EventRejected, 0},
		{"rejected with an extra byte", append(rtype.AppendRejected(nil), 0), nil, Connecting, 0, DropHandshakeSize},
		{"rejected from elsewhere", rtype.AppendRejected(nil), other, Connecting, 0, DropNotFromServer},
		{"hello", hello(), nil, Connecting, 0, DropUnexpectedHandshake},
		{"bad magic", withByte(rtype.AppendWelcome(nil, 5), 0, 0), nil, Connecting, 0, DropBadMagic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cp := newClient(ClientConfig{})
			c.Update(t0)
			cp.take()
			from := serverAddr
			if tt.from != nil {
				from = tt.from.(netip.AddrPort)
			}
			c.Receive(tt.b, from, t0)
			if c.State() != tt.state {
				t.Errorf("state %v, want %v", c.State(), tt.state)
			}
			ev := events(c, 0)
			if tt.event != 0 && (len(ev) != 1 || ev[0].Kind != tt.event) {
				t.Errorf("events %v, want %v", ev, tt.event)
			}
			if tt.event == 0 && (len(ev) != 0 || c.Stats().Drops.Count(tt.drop) != 1) {
				t.Errorf("events %v, Drops %v", ev, c.Stats().Drops)
			}
			if tt.state == Waiting && c.ConnectionID() != 5 {
				t.Errorf("ConnectionID %d", c.ConnectionID())
			}
			// A client that stopped sends no more Hello (§4.4).
			c.Update(t0.Add(5 * time.Second))
			if n := len(cp.take()); (tt.state == Connecting) != (n == 1) {
				t.Errorf("state %v: %d Hellos after 5 s", tt.state, n)
			}
		})
	}
}

// srv builds a server packet to the client of connectionID 5.
func srv(t *testing.T, seq uint32, msgs ...rtype.Message) []byte {
	return packet(t, rtype.PacketHeader{ConnectionID: 5, Sequence: seq}, msgs...)
}

func create(id uint32, tick uint32) rtype.CreateEntity {
	return rtype.CreateEntity{ServerTick: tick, NetworkID: id, EntityType: rtype.ArchetypeEnemyBidos, X: 0x9F40, Y: 0x84B0}
}

func snapshot(tick uint32, ids ...uint32) rtype.Snapshot {
	s := rtype.Snapshot{ServerTick: tick}
	for _, id := range ids {
		s.States = append(s.States, rtype.EntityState{NetworkID: id, X: 0x8000 + rtype.Pos16(tick), Y: 0x8000})
	}
	return s
}

// §3, §5.4, §5.2: a connected client drops packets from other addresses,
// with another connectionId, duplicates and too old ones.
func TestClient_5_4_DropsPackets(t *testing.T) {
	tests := []struct {
		name string
		seqs []uint32
		b    func(t *testing.T) []byte
		from netip.AddrPort
		drop DropReason
	}{
		{"other address", nil, func(t *testing.T) []byte { return srv(t, 1, create(1, 1)) }, addrA, DropNotFromServer},
		{"other connection id", nil, func(t *testing.T) []byte {
			return packet(t, rtype.PacketHeader{ConnectionID: 6, Sequence: 1}, create(1, 1))
		}, serverAddr, DropWrongConnection},
		{"a late Welcome", nil, func(t *testing.T) []byte { return rtype.AppendWelcome(nil, 5) }, serverAddr, DropShortPacket},
		{"duplicate", []uint32{1}, func(t *testing.T) []byte { return srv(t, 1, create(1, 1)) }, serverAddr, DropDuplicate},
		{"too old", []uint32{40}, func(t *testing.T) []byte { return srv(t, 7, create(1, 1)) }, serverAddr, DropTooOld},
		{"bytes after the last message", nil, func(t *testing.T) []byte { return append(srv(t, 1, create(1, 1)), 0) }, serverAddr, DropTruncatedMessageHeader},
		{"549 bytes (§2.2)", nil, func(t *testing.T) []byte {
			full := srv(t, 1, rtype.RawMessage{Type: 0x00FF, Payload: make([]byte, rtype.MaxMessagePayload)})
			return append(full, 0) // 549 bytes: over the limit before any framing
		}, serverAddr, DropTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := connectedClient(t, ClientConfig{})
			for _, q := range tt.seqs {
				c.Receive(srv(t, q), serverAddr, t0)
			}
			c.Receive(tt.b(t), tt.from, t0)
			if c.NumEntities() != 0 || c.Stats().Drops.Count(tt.drop) != 1 {
				t.Errorf("entities %d, Drops %v", c.NumEntities(), c.Stats().Drops)
			}
		})
	}
}

// §5.2, §7.1: outgoing sequences and inputSequence start at 1; ack and
// ackBits describe the server packets received, in every packet.
func TestClient_5_2_NumbersAndAcks(t *testing.T) {
	c, cp := noPings(connectedClient(t, ClientConfig{}))
	if err := c.SendInput(0, t0); err != nil {
		t.Fatal(err)
	}
	for _, q := range []uint32{1, 3, 2, 10} {
		c.Receive(srv(t, q), serverAddr, t0)
		if err := c.SendInput(rtype.ActionShoot, t0); err != nil {
			t.Fatal(err)
		}
	}
	type sent struct {
		H  rtype.PacketHeader
		In rtype.Input
	}
	var got []sent
	for _, w := range cp.take() {
		h, ms := messages(t, w.b)
		var in rtype.Input
		if len(ms) != 1 || in.UnmarshalBinary(ms[0].Payload) != nil {
			t.Fatalf("packet % x", w.b)
		}
		got = append(got, sent{h, in})
	}
	in := func(n uint32, a rtype.Actions) rtype.Input {
		return rtype.Input{InputSequence: n, ClientTick: n, Actions: a}
	}
	want := []sent{
		{rtype.PacketHeader{ConnectionID: 5, Sequence: 1}, in(1, 0)},
		{rtype.PacketHeader{ConnectionID: 5, Sequence: 2, Ack: 1}, in(2, rtype.ActionShoot)},
		{rtype.PacketHeader{ConnectionID: 5, Sequence: 3, Ack: 3, AckBits: 0b10}, in(3, rtype.ActionShoot)},
		{rtype.PacketHeader{ConnectionID: 5, Sequence: 4, Ack: 3, AckBits: 0b11}, in(4, rtype.ActionShoot)},
		{rtype.PacketHeader{ConnectionID: 5, Sequence: 5, Ack: 10, AckBits: 0b111000000}, in(5, rtype.ActionShoot)},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sent (-want +got):\n%s", d)
	}
	if err := c.SendInput(0x20, t0); err != rtype.ErrReservedActions {
		t.Errorf("reserved bit: %v", err)
	}
}

// §7.2: a Ping with a timestamp; the RTT comes from the matching Pong only.
func TestClient_7_2_MeasuresRTT(t *testing.T) {
	c, cp := connectedClient(t, ClientConfig{})
	c.SendInput(0, t0.Add(100*time.Millisecond))
	pings := ofType(t, cp.take(), rtype.TypePing)
	if len(pings) != 1 {
		t.Fatalf("%d Pings, want 1", len(pings))
	}
	var p rtype.Ping
	p.UnmarshalBinary(pings[0].Payload)
	c.Receive(srv(t, 1, rtype.Pong{Timestamp: p.Timestamp + 1}), serverAddr, t0.Add(130*time.Millisecond))
	if st := c.Stats(); st.SRTT != 0 || st.Drops.Count(DropUnmatchedPong) != 1 {
		t.Errorf("an unmatched Pong was used: SRTT %v", st.SRTT)
	}
	c.Receive(srv(t, 2, rtype.Pong(p)), serverAddr, t0.Add(145*time.Millisecond))
	if srtt := c.Stats().SRTT; srtt != 45*time.Millisecond {
		t.Errorf("SRTT %v, want 45ms", srtt)
	}
	c.SendInput(0, t0.Add(200*time.Millisecond))
	if n := len(ofType(t, cp.take(), rtype.TypePing)); n != 0 {
		t.Errorf("Ping sent again within a second")
	}
}

// §8.1, §8.2, §8.3, §7.4: the entity table.
func TestClient_8_EntityTable(t *testing.T) {
	type step struct {
		at   time.Duration
		msgs []rtype.Message
	}
	tests := []struct {
		name    string
		steps   []step
		events  []ClientEventKind
		queries []uint32
		known   []uint32
	}{
		{"create then move", []step{{0, []rtype.Message{create(1, 1)}}, {10, []rtype.Message{snapshot(3, 1)}}},
			[]ClientEventKind{EventEntityCreated, EventSnapshot}, nil, []uint32{1}},
		{"create of a known id ignored", []step{{0, []rtype.Message{create(1, 1)}}, {10, []rtype.Message{create(1, 2)}}},
			[]ClientEventKind{EventEntityCreated}, nil, []uint32{1}},
		{"unknown id queried exactly once", []step{{0, []rtype.Message{snapshot(3, 7)}}, {10, []rtype.Message{snapshot(6, 7)}}, {20, []rtype.Message{snapshot(9, 7, 8)}}},
			[]ClientEventKind{EventSnapshot, EventSnapshot, EventSnapshot}, []uint32{7, 8}, nil},
		{"not asked again by default", []step{{0, []rtype.Message{snapshot(3, 7)}}, {600, []rtype.Message{snapshot(6, 7)}}},
			[]ClientEventKind{EventSnapshot, EventSnapshot}, []uint32{7}, nil},
		{"destroyed id not queried", []step{{0, []rtype.Message{create(1, 1)}}, {10, []rtype.Message{rtype.DestroyEntity{ServerTick: 2, NetworkID: 1, Reason: 1}}}, {20, []rtype.Message{snapshot(3, 1)}}},
			[]ClientEventKind{EventEntityCreated, EventEntityDestroyed, EventSnapshot}, nil, nil},
		{"queried again once forgotten", []step{{0, []rtype.Message{rtype.DestroyEntity{ServerTick: 2, NetworkID: 1}}}, {2100, []rtype.Message{snapshot(3, 1)}}},
			[]ClientEventKind{EventSnapshot}, []uint32{1}, nil},
		{"stale creation after destruction ignored", []step{{0, []rtype.Message{rtype.DestroyEntity{ServerTick: 5, NetworkID: 1, Reason: 1}}}, {10, []rtype.Message{create(1, 4)}}},
			nil, nil, nil},
		{"creation answering a query", []step{{0, []rtype.Message{snapshot(3, 7)}}, {10, []rtype.Message{create(7, 4)}}, {20, []rtype.Message{snapshot(6, 7)}}},
			[]ClientEventKind{EventSnapshot, EventEntityCreated, EventSnapshot}, []uint32{7}, []uint32{7}},
		{"invalid messages dropped", []step{{0, []rtype.Message{
			rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: make([]byte, 15)},
			rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: make([]byte, 16)},
			rtype.RawMessage{Type: rtype.TypeDestroyEntity, Payload: []byte{0, 0, 0, 1, 0, 0, 0, 1, 5}},
			rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: []byte{0, 0, 0, 1, 0, 48}},
			rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: append([]byte{0, 0, 0, 1, 0, 2}, make([]byte, 22)...)},
			create(2, 1),
		}}}, []ClientEventKind{EventEntityCreated}, nil, []uint32{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cp := noPings(connectedClient(t, ClientConfig{}))
			var kinds []ClientEventKind
			var queries []uint32
			for i, s := range tt.steps {
				now := t0.Add(s.at * time.Millisecond)
				c.Receive(srv(t, uint32(i+1), s.msgs...), serverAddr, now)
				c.Update(now)
				c.SendInput(0, now)
				for _, m := range ofType(t, cp.take(), rtype.TypeQueryEntity) {
					var q rtype.QueryEntity
					q.UnmarshalBinary(m.Payload)
					queries = append(queries, q.NetworkID)
				}
				for _, e := range events(c, 0) {
					if e.Kind != EventPlaying { // the state's own test
						kinds = append(kinds, e.Kind)
					}
				}
			}
			if d := cmp.Diff(tt.events, kinds); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.queries, queries); d != "" {
				t.Errorf("QueryEntity (-want +got):\n%s", d)
			}
			var known []uint32
			for e := range c.Entities() {
				known = append(known, e.ID)
			}
			if d := cmp.Diff(tt.known, known); d != "" {
				t.Errorf("entities (-want +got):\n%s", d)
			}
		})
	}
}

// §7.3: closing a connected client sends Disconnect with reason 1.
func TestClient_7_3_DisconnectsOnClose(t *testing.T) {
	c, cp := connectedClient(t, ClientConfig{})
	c.Close(t0)
	out := cp.take()
	if len(out) != 1 {
		t.Fatalf("%d datagrams", len(out))
	}
	_, ms := messages(t, out[0].b)
	if d := cmp.Diff([]rtype.RawMessage{{Type: rtype.TypeDisconnect, Payload: []byte{1}}}, ms); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if c.State() != Closed || c.SendInput(0, t0) != ErrNotConnected {
		t.Errorf("state %v after Close", c.State())
	}
	c.Close(t0)
	if len(cp.take()) != 0 {
		t.Errorf("second Close sent something")
	}
}

// A connected client whose server falls silent times out.
func TestClient_13_3_ServerTimeout(t *testing.T) {
	c, _ := connectedClient(t, ClientConfig{ServerTimeout: 3 * time.Second})
	c.Update(t0.Add(2999 * time.Millisecond))
	c.Update(t0.Add(3 * time.Second))
	if ev := events(c, EventTimedOut); len(ev) != 1 || ev[0].Close != CloseTimeout || c.State() != Closed {
		t.Errorf("events %v, state %v", ev, c.State())
	}
}

// §8.1: a valid Snapshot gives every known entity it lists its position,
// and is reported by one EventSnapshot with its serverTick, whatever the
// number of states; entities it does not list keep theirs.
func TestClient_8_1_SnapshotEventAndPositions(t *testing.T) {
	c, _ := noPings(connectedClient(t, ClientConfig{}))
	c.Receive(srv(t, 1, create(1, 1), create(2, 1), create(3, 1)), serverAddr, t0)
	c.Receive(srv(t, 2, snapshot(7, 1, 3, 9)), serverAddr, t0)
	var got []ClientEvent
	for _, e := range events(c, 0) {
		if e.Kind == EventSnapshot {
			got = append(got, e)
		}
	}
	if len(got) != 1 || got[0].Tick != 7 {
		t.Fatalf("EventSnapshot %+v, want one with tick 7", got)
	}
	want := map[uint32]float64{1: rtype.Pos16(0x8000 + 7).Pixels(), 2: 2000, 3: rtype.Pos16(0x8000 + 7).Pixels()} // 2000: the CreateEntity's
	for id, x := range want {
		if e, ok := c.Entity(id); !ok || e.X != x {
			t.Errorf("entity %d: %+v, want x = %v", id, e, x)
		}
	}
}

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

// §7.4: a client SHOULD send QueryEntity once for an id a Snapshot lists
// and it never received a CreateEntity for. Asking again is opt-in
// (QueryRetry > 0), with waits that double, 4 asks at most; a client whose entity table is full asks nothing,
// since it would drop the answer.
func TestClient_7_4_QueryEntityOnce(t *testing.T) {
	type step struct {
		at   time.Duration // ms after connecting
		msgs []rtype.Message
	}
	// listedFor repeats a Snapshot listing ids every 100 ms for n steps;
	// listed does it for 3 s.
	listedFor := func(n int, ids ...uint32) []step {
		var s []step
		for i := range n {
			s = append(s, step{time.Duration(i * 100), []rtype.Message{snapshot(uint32(3*i+3), ids...)}})
		}
		return s
	}
	listed := func(ids ...uint32) []step { return listedFor(30, ids...) }
	tests := []struct {
		name    string
		cfg     ClientConfig
		steps   []step
		queries []uint32
	}{
		{"default asks once in 3 s", ClientConfig{}, listed(7), []uint32{7}},
		{"negative QueryRetry asks once", ClientConfig{QueryRetry: -1}, listed(7), []uint32{7}},
		{"QueryRetry 1 s asks again after 1 s, then 2 s", ClientConfig{QueryRetry: time.Second}, listed(7), []uint32{7, 7}},
		// At 0, 200, 600 and 1400 ms; not at 3000 ms: 4 asks at most.
		{"QueryRetry 200 ms doubles its waits and gives up", ClientConfig{QueryRetry: 200 * time.Millisecond}, listedFor(60, 7), []uint32{7, 7, 7, 7}},
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

// §2.2: no datagram the client sends exceeds 548 bytes, however many
// QueryEntity messages are due with the frame's Input: the packet is split.
func TestClient_2_2_SplitsWhatDoesNotFit(t *testing.T) {
	c, cp := connectedClient(t, ClientConfig{})
	var ids []uint32
	for id := range uint32(maxQueries) {
		ids = append(ids, id+100)
	}
	c.Receive(srv(t, 1, snapshot(3, ids[:rtype.MaxSnapshotStates]...)), serverAddr, t0) // 64 unknown ids, 47 at most per Snapshot
	c.Receive(srv(t, 2, snapshot(3, ids[rtype.MaxSnapshotStates:]...)), serverAddr, t0)
	if err := c.SendInput(0, t0); err != nil {
		t.Fatal(err)
	}
	sent := cp.take()
	queries := len(ofType(t, sent, rtype.TypeQueryEntity))
	for _, w := range sent {
		if len(w.b) > rtype.MaxDatagramSize {
			t.Errorf("sent %d bytes", len(w.b))
		}
	}
	if queries != maxQueries || len(sent) < 2 {
		t.Errorf("%d QueryEntity in %d datagrams, want %d split over several", queries, len(sent), maxQueries)
	}
}
