package session

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// clientIn returns a client brought to state from at t0 with its events
// read and its datagrams forgotten: Connecting after its first Hello,
// Waiting after Welcome, Playing after a CreateEntity in server packet 1,
// Closed after Close while Playing.
func clientIn(t *testing.T, from State, cfg ClientConfig) (*Client, *capture) {
	t.Helper()
	c, cp := newClient(cfg)
	c.Update(t0)
	if from != Connecting {
		c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
	}
	if from == Playing || from == Closed {
		c.Receive(srv(t, 1, create(1, 1)), serverAddr, t0)
	}
	if from == Closed {
		c.Close(t0)
	}
	if c.State() != from {
		t.Fatalf("set-up reached %v, want %v", c.State(), from)
	}
	events(c, 0)
	cp.take()
	return c, cp
}

// §3, §4, §10: every transition of the client's states, and what leaves a
// state unchanged. Server packets in the steps are numbered from 10, above
// the set-up's.
func TestClient_10_StateTransitions(t *testing.T) {
	recv := func(b func(t *testing.T) []byte) func(*testing.T, *Client, *capture) {
		return func(t *testing.T, c *Client, _ *capture) { c.Receive(b(t), serverAddr, t0.Add(time.Millisecond)) }
	}
	msg := func(ms ...rtype.Message) func(*testing.T, *Client, *capture) {
		return recv(func(t *testing.T) []byte { return srv(t, 10, ms...) })
	}
	raw := func(b []byte) func(*testing.T, *Client, *capture) {
		return recv(func(*testing.T) []byte { return b })
	}
	at := func(d time.Duration) func(*testing.T, *Client, *capture) {
		return func(_ *testing.T, c *Client, _ *capture) { c.Update(t0.Add(d)) }
	}
	closeAt := func(_ *testing.T, c *Client, _ *capture) { c.Close(t0) }
	// pong answers the Ping that a Flush sends.
	pong := func(t *testing.T, c *Client, cp *capture) {
		c.Flush(t0)
		pings := ofType(t, cp.take(), rtype.TypePing)
		if len(pings) != 1 {
			t.Fatalf("%d Pings sent, want 1", len(pings))
		}
		var p rtype.Ping
		if err := p.UnmarshalBinary(pings[0].Payload); err != nil {
			t.Fatal(err)
		}
		c.Receive(srv(t, 10, rtype.Pong(p)), serverAddr, t0.Add(time.Millisecond))
	}
	rejected := rtype.AppendRejected(nil)
	const none = numDropReasons // no drop expected
	tests := []struct {
		name   string
		from   State
		do     func(*testing.T, *Client, *capture)
		want   State
		reason CloseReason
		events []ClientEventKind
		drop   DropReason
		// sent are the message types the client sent, Hello as 0.
		sent []rtype.MessageType
	}{
		// Connecting (§4.2–§4.4).
		{"Connecting: Welcome", Connecting, raw(rtype.AppendWelcome(nil, 5)), Waiting, CloseNone, []ClientEventKind{EventConnected}, none, nil},
		{"Connecting: Rejected", Connecting, raw(rejected), Closed, CloseRejected, []ClientEventKind{EventRejected}, none, nil},
		{"Connecting: Rejected with an extra byte", Connecting, raw(append(rtype.AppendRejected(nil), 0)), Connecting, CloseNone, nil, DropHandshakeSize, nil},
		{"Connecting: GiveUp", Connecting, at(DefaultGiveUp), Closed, CloseGaveUp, []ClientEventKind{EventTimedOut}, none, nil},
		{"Connecting: just before GiveUp", Connecting, at(DefaultGiveUp - time.Nanosecond), Connecting, CloseNone, nil, none, []rtype.MessageType{0}},
		{"Connecting: a connected packet", Connecting, msg(create(1, 1)), Connecting, CloseNone, nil, DropBadMagic, nil},
		{"Connecting: Close sends nothing", Connecting, closeAt, Closed, CloseDisconnect, nil, none, nil},

		// Waiting: the first valid world message plays (§8, §10).
		{"Waiting: Snapshot", Waiting, msg(snapshot(3, 7)), Playing, CloseNone, []ClientEventKind{EventPlaying, EventSnapshot}, none, nil},
		{"Waiting: empty Snapshot", Waiting, msg(snapshot(3)), Playing, CloseNone, []ClientEventKind{EventPlaying, EventSnapshot}, none, nil},
		{"Waiting: CreateEntity", Waiting, msg(create(1, 1)), Playing, CloseNone, []ClientEventKind{EventPlaying, EventEntityCreated}, none, nil},
		{"Waiting: DestroyEntity of an unknown id", Waiting, msg(rtype.DestroyEntity{ServerTick: 1, NetworkID: 1, Reason: 1}), Playing, CloseNone, []ClientEventKind{EventPlaying}, none, nil},
		{"Waiting: invalid Snapshot", Waiting, msg(rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: []byte{0, 0, 0, 1, 0, 48}}), Waiting, CloseNone, nil, DropTooManyStates, nil},
		{"Waiting: invalid CreateEntity", Waiting, msg(rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: make([]byte, 16)}), Waiting, CloseNone, nil, DropZeroNetworkID, nil},
		{"Waiting: invalid DestroyEntity", Waiting, msg(rtype.RawMessage{Type: rtype.TypeDestroyEntity, Payload: []byte{0, 0, 0, 1, 0, 0, 0, 1, 5}}), Waiting, CloseNone, nil, DropDestroyReason, nil},
		{"Waiting: world message in a dropped packet", Waiting, recv(func(t *testing.T) []byte { return append(srv(t, 10, create(1, 1)), 0) }), Waiting, CloseNone, nil, DropTruncatedMessageHeader, nil},
		{"Waiting: world message for another connection", Waiting, recv(func(t *testing.T) []byte {
			return packet(t, rtype.PacketHeader{ConnectionID: 6, Sequence: 10}, create(1, 1))
		}), Waiting, CloseNone, nil, DropWrongConnection, nil},
		{"Waiting: empty packet", Waiting, msg(), Waiting, CloseNone, nil, none, nil},
		{"Waiting: Pong", Waiting, pong, Waiting, CloseNone, []ClientEventKind{EventPong}, none, nil},
		{"Waiting: unmatched Pong", Waiting, msg(rtype.Pong{Timestamp: 77}), Waiting, CloseNone, nil, DropUnmatchedPong, nil},
		{"Waiting: unknown message", Waiting, msg(rtype.RawMessage{Type: 0x00FF, Payload: []byte{1}}), Waiting, CloseNone, nil, DropUnknownMessage, nil},

		// Waiting: Rejected (§4.4, §3).
		{"Waiting: Rejected", Waiting, raw(rejected), Closed, CloseRejected, []ClientEventKind{EventRejected}, none, nil},
		{"Waiting: Rejected with an extra byte", Waiting, raw(append(rtype.AppendRejected(nil), 0)), Waiting, CloseNone, nil, DropShortPacket, nil},
		{"Waiting: Rejected from another address", Waiting, func(_ *testing.T, c *Client, _ *capture) { c.Receive(rejected, addrA, t0) }, Waiting, CloseNone, nil, DropNotFromServer, nil},
		{"Waiting: Rejected with a bad magic", Waiting, raw(withByte(rtype.AppendRejected(nil), 0, 0)), Waiting, CloseNone, nil, DropShortPacket, nil},
		{"Waiting: Hello", Waiting, raw(hello()), Waiting, CloseNone, nil, DropShortPacket, nil},
		{"Waiting: Welcome again", Waiting, raw(rtype.AppendWelcome(nil, 5)), Waiting, CloseNone, nil, DropShortPacket, nil},

		// Waiting: timers and Close.
		{"Waiting: server silent", Waiting, at(DefaultTimeout), Closed, CloseTimeout, []ClientEventKind{EventTimedOut}, none, nil},
		{"Waiting: just before the timeout", Waiting, at(DefaultTimeout - time.Nanosecond), Waiting, CloseNone, nil, none, nil},
		{"Waiting: heard from, then silent", Waiting, func(t *testing.T, c *Client, _ *capture) {
			c.Receive(srv(t, 10), serverAddr, t0.Add(5*time.Second))
			c.Update(t0.Add(DefaultTimeout + time.Second))
		}, Waiting, CloseNone, nil, none, nil},
		{"Waiting: Close", Waiting, closeAt, Closed, CloseDisconnect, nil, none, []rtype.MessageType{rtype.TypeDisconnect}},

		// Playing.
		{"Playing: more world", Playing, msg(create(2, 2), snapshot(3, 1, 2)), Playing, CloseNone, []ClientEventKind{EventEntityCreated, EventSnapshot}, none, nil},
		{"Playing: Rejected is a short packet", Playing, raw(rejected), Playing, CloseNone, nil, DropShortPacket, nil},
		{"Playing: server silent", Playing, at(DefaultTimeout), Closed, CloseTimeout, []ClientEventKind{EventTimedOut}, none, nil},
		{"Playing: Close", Playing, closeAt, Closed, CloseDisconnect, nil, none, []rtype.MessageType{rtype.TypeDisconnect}},

		// Closed: nothing changes it.
		{"Closed: Welcome", Closed, raw(rtype.AppendWelcome(nil, 5)), Closed, CloseDisconnect, nil, DropClosed, nil},
		{"Closed: Rejected", Closed, raw(rejected), Closed, CloseDisconnect, nil, DropClosed, nil},
		{"Closed: a packet", Closed, msg(create(2, 2)), Closed, CloseDisconnect, nil, DropClosed, nil},
		{"Closed: timers", Closed, at(time.Hour), Closed, CloseDisconnect, nil, none, nil},
		{"Closed: Close again", Closed, closeAt, Closed, CloseDisconnect, nil, none, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cp := clientIn(t, tt.from, ClientConfig{})
			tt.do(t, c, cp)
			if c.State() != tt.want || c.CloseReason() != tt.reason {
				t.Errorf("state %v (%v), want %v (%v)", c.State(), c.CloseReason(), tt.want, tt.reason)
			}
			var kinds []ClientEventKind
			for _, e := range events(c, 0) {
				kinds = append(kinds, e.Kind)
				if (e.Kind == EventRejected || e.Kind == EventTimedOut) && e.Close != tt.reason {
					t.Errorf("%v event with Close %v, want %v", e.Kind, e.Close, tt.reason)
				}
			}
			if d := cmp.Diff(tt.events, kinds); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			drops := c.Stats().Drops
			var want Drops
			if tt.drop != none {
				want.add(tt.drop)
			}
			if drops != want {
				t.Errorf("Drops %v, want %v", drops, want)
			}
			if d := cmp.Diff(tt.sent, sentTypes(t, cp.take())); d != "" {
				t.Errorf("sent (-want +got):\n%s", d)
			}
			rejects := uint64(0)
			if tt.reason == CloseRejected {
				rejects = 1
			}
			if r := c.Stats().Rejected; r != rejects {
				t.Errorf("Stats.Rejected %d, want %d", r, rejects)
			}
			// Only a connected client sends packets (§5); a stopped one
			// sends nothing more, Hello included (§4.4).
			if err := c.SendInput(0, t0.Add(time.Second)); (err == nil) != tt.want.Connected() {
				t.Errorf("SendInput in %v: %v", tt.want, err)
			}
			if tt.want == Closed {
				c.Update(t0.Add(time.Hour))
				if out := cp.take(); len(out) != 0 {
					t.Errorf("a Closed client sent %d datagrams", len(out))
				}
			}
		})
	}
}

// sentTypes returns the types of the messages in the datagrams a client
// sent, 0 for a Hello.
func sentTypes(t *testing.T, ws []wire) []rtype.MessageType {
	t.Helper()
	var out []rtype.MessageType
	for _, w := range ws {
		if string(w.b) == string(hello()) {
			out = append(out, 0)
			continue
		}
		_, ms := messages(t, w.b)
		for _, m := range ms {
			out = append(out, m.Type)
		}
	}
	return out
}

// §4.4, §10: a server whose slots are taken keeps a welcomed client
// Waiting, answering each of its packets with an empty one, then either
// sends the world (Playing) or, its waiting queue full, Rejected. The
// client never times out while the server answers.
func TestClient_4_4_WaitingThenPlayingOrRejected(t *testing.T) {
	tests := []struct {
		name   string
		last   func(t *testing.T, seq uint32) []byte
		want   State
		events []ClientEventKind
	}{
		{"slot freed", func(t *testing.T, seq uint32) []byte { return srv(t, seq, create(9, 600)) }, Playing, []ClientEventKind{EventConnected, EventPlaying, EventEntityCreated}},
		{"queue full", func(*testing.T, uint32) []byte { return rtype.AppendRejected(nil) }, Closed, []ClientEventKind{EventConnected, EventRejected}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cp := noPings(newClient(ClientConfig{}))
			c.Update(t0)
			c.Receive(rtype.AppendWelcome(nil, 5), serverAddr, t0)
			const frame = time.Second / 60
			now := t0
			seq := uint32(0)
			for range 30 * 60 { // 30 s of frames, three ServerTimeouts
				now = now.Add(frame)
				c.Update(now)
				if err := c.SendInput(0, now); err != nil {
					t.Fatalf("at %v: %v", now.Sub(t0), err)
				}
				for range cp.take() {
					seq++
					c.Receive(srv(t, seq), serverAddr, now)
				}
			}
			if c.State() != Waiting {
				t.Fatalf("after 30 s of empty answers: %v", c.State())
			}
			c.Receive(tt.last(t, seq+1), serverAddr, now)
			if c.State() != tt.want {
				t.Errorf("state %v, want %v", c.State(), tt.want)
			}
			var kinds []ClientEventKind
			for _, e := range events(c, 0) {
				kinds = append(kinds, e.Kind)
			}
			if d := cmp.Diff(tt.events, kinds); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
		})
	}
}
