package conformance

import (
	"encoding/binary"
	"time"

	"github.com/rtypeproto/rtype"
)

// clientMessageCases are the §6, §7 and §8 rules as a client keeps them:
// the messages it sends, and the server messages it must drop or ignore.
var clientMessageCases = []Case{
	{ID: "6/1", Level: Must, Title: "a receiver MUST ignore messages whose type it does not know, and keep processing the other messages of the packet", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		r.send(rtype.RawMessage{Type: 0x00F0, Payload: []byte{1, 2, 3, 4, 5}}, rtype.RawMessage{Type: 0x4242}, r.snap(x))
		r.processed(want{what: "packet " + itoa(seq) + ": messages of unknown types 0x00F0 (5 bytes) and 0x4242 (empty), then a Snapshot listing id " + itoa(x), ids: []uint32{x}, seq: seq})
	}},
	{ID: "6/2", late: true, Level: Must, Title: "types 0x01 to 0x7F are sent by clients; type 0 is invalid and is never sent", run: func(t *check) {
		var bad *msg
		r := t.connect(func(m msg) {
			// A packet with no message comes as one with a nil payload.
			if bad == nil && m.raw.Payload != nil && !m.raw.Type.FromClient() {
				bad = &m
			}
		})
		// A Snapshot to query about, and a quit, draw every kind of message.
		r.send(r.snap(badID(r.seq + 1)))
		r.settle(500 * time.Millisecond)
		if bad == nil && r.stop != nil {
			r.quit()
			r.settle(300 * time.Millisecond)
		}
		if bad != nil {
			t.Failf("the client's packet %d at %v carries a message of type %#04x (%d bytes): not a client type", bad.hdr.Sequence,
				t.at(bad.at), uint16(bad.raw.Type), len(bad.raw.Payload))
		}
		t.overRun(nil)
	}},
	{ID: "7.1/1", Level: Should, Title: "the client SHOULD send one Input per frame, including frames where nothing is held", needs: inputWatch + time.Second, run: func(t *check) {
		l := &inputLog{}
		r := t.connect(l.see)
		r.poll(t.within(inputWatch), func(msg) bool { return l.enough() })
		l.judge(t)
	}},
	{ID: "7.1/2", Level: Must, Title: "the Input payload is exactly 9 bytes", run: func(t *check) {
		r := t.connect()
		m, ok := r.inputWhere(func(m msg) bool { return len(m.raw.Payload) != rtype.InputSize })
		if ok {
			t.Failf("the client's packet %d at %v carries an Input of %d bytes %s: want 9", m.hdr.Sequence, t.at(m.at), len(m.raw.Payload), hex(m.raw.Payload))
		}
	}},
	{ID: "7.1/3", Level: Must, Title: "inputSequence starts at 1 and increases by 1 for each Input sent", run: func(t *check) {
		var seqs []uint32
		r := t.connect(func(m msg) {
			if m.raw.Type == rtype.TypeInput && len(m.raw.Payload) >= 4 && len(seqs) < 30 {
				seqs = append(seqs, binary.BigEndian.Uint32(m.raw.Payload))
			}
		})
		r.poll(r.t.within(time.Second), func(msg) bool { return len(seqs) == 30 })
		if len(seqs) == 0 {
			t.waitedOut("no Input within 1 s of the Welcome")
		}
		for i, s := range seqs {
			if s != uint32(i+1) {
				t.Failf("Input %d of the connection has inputSequence %d, want %d (seen: %v)", i+1, s, i+1, seqs)
			}
		}
	}},
	{ID: "7.1/4", Level: Must, Title: "bits 5 to 7 of actions are reserved and MUST be 0", run: func(t *check) {
		r := t.connect()
		m, ok := r.inputWhere(func(m msg) bool {
			return len(m.raw.Payload) >= rtype.InputSize && rtype.Actions(m.raw.Payload[8])&rtype.ActionsReserved != 0
		})
		if ok {
			t.Failf("the client's packet %d at %v carries an Input with actions %#02x: bits 5 to 7 set", m.hdr.Sequence, t.at(m.at), m.raw.Payload[8])
		}
	}},
	{ID: "7.2/1", Level: Must, Title: "the Ping payload MUST be exactly 4 bytes", run: func(t *check) {
		var ping *msg
		r := t.connect(func(m msg) {
			if ping == nil && m.raw.Type == rtype.TypePing {
				ping = &m
			}
		})
		r.poll(r.t.within(pingWait), func(msg) bool { return ping != nil })
		switch {
		case ping == nil:
			t.waitedOut("no Ping within %v of the Welcome", pingWait)
		case len(ping.raw.Payload) != rtype.PingSize:
			t.Failf("the client's packet %d carries a Ping of %d bytes %s: want 4", ping.hdr.Sequence, len(ping.raw.Payload), hex(ping.raw.Payload))
		}
	}},
	{ID: "7.3/1", Level: Should, Title: "a client SHOULD send Disconnect with reason 1 when the player quits", quits: true, run: func(t *check) {
		m, ok := t.connect().quitDisconnect()
		switch {
		case !ok:
			t.Failf("the player quit at %v (the client ended); no Disconnect came", t.since())
		case len(m.raw.Payload) != rtype.DisconnectSize || m.raw.Payload[0] != byte(rtype.DisconnectClientQuit):
			t.Failf("the player quit; the client's Disconnect is %s: want reason 1, client quit", hex(m.raw.Payload))
		}
	}},
	{ID: "7.3/2", Level: Must, Title: "the Disconnect payload is exactly 1 byte", quits: true, run: func(t *check) {
		m, ok := t.connect().quitDisconnect()
		switch {
		case !ok:
			t.waitedOut("the player quit; no Disconnect came (case 7.3/1)")
		case len(m.raw.Payload) != rtype.DisconnectSize:
			t.Failf("the player quit; the client's Disconnect in packet %d is %d bytes %s: want 1", m.hdr.Sequence, len(m.raw.Payload), hex(m.raw.Payload))
		}
	}},
	{ID: "7.4/1", beside: true, Level: Should, Title: "a client SHOULD send QueryEntity once when a Snapshot mentions a network id for which it never received CreateEntity", needs: queryWatch + time.Second, run: func(t *check) {
		r := t.connect()
		q := r.logQueries()
		from := r.seq + 1
		x := badID(from)
		listed := t.since()
		for end := t.within(queryWatch); time.Now().Before(end); {
			r.send(r.snap(x))
			r.settle(snapEvery)
		}
		what := "a Snapshot listing id " + itoa(x) + " every " + snapEvery.String() + " for " + queryWatch.String() + " (packets " + itoa(from) + " to " + itoa(r.seq) + ")"
		switch n := q.count[x]; {
		case n == 0:
			t.Failf("%s: no QueryEntity for it; a client SHOULD ask once", what)
		case n > 1:
			t.Failf("%s: %d QueryEntity for it, at %s after the first listing; want one", what, n, q.times(x, listed))
		}
	}},
	{ID: "7.4/2", Level: Must, Title: "QueryEntity names an entity the client does not know, never 0", run: func(t *check) {
		r := t.connect()
		q := r.logQueries()
		r.send(snapshotRaw(r.tick(), 1, 0))
		r.send(r.snap(badID(r.seq+1), 0))
		if !r.control() {
			t.waitedOut("not run: no QueryEntity for the id a valid packet %d listed within %v: the client never queries, so whether it would query id 0 is not observable", r.seq, answerWait)
		}
		r.settle(afterAnswer)
		if q.count[0] > 0 {
			t.Failf("Snapshots listing id 0 in packets %d and %d; the client sent QueryEntity 0 at %v", r.seq-2, r.seq-1, q.first(0))
		}
	}},
	{ID: "7.4/3", Level: Must, Title: "the QueryEntity payload is exactly 4 bytes", run: func(t *check) {
		r := t.connect()
		seq := r.send(r.snap(badID(r.seq + 1)))
		m, ok := r.expect(answerWait, isType(rtype.TypeQueryEntity))
		switch {
		case !ok:
			t.waitedOut("packet %d listed the unknown id %d; no QueryEntity within %v", seq, badID(seq), answerWait)
		case len(m.raw.Payload) != rtype.QueryEntitySize:
			t.Failf("packet %d listed the unknown id %d; the client's QueryEntity is %d bytes %s: want 4", seq, badID(seq), len(m.raw.Payload), hex(m.raw.Payload))
		}
	}},
	{ID: "7.4/4", Level: Should, Title: "a client SHOULD send QueryEntity only for a network id for which it never received CreateEntity", run: func(t *check) {
		r := t.connect()
		q := r.logQueries()
		seq := r.seq + 1
		x := badID(seq)
		r.send(create(r.tick(), x))
		for range 4 {
			r.send(r.snap(x))
			r.settle(30 * time.Millisecond)
		}
		if !r.control() {
			t.waitedOut("not run: no QueryEntity for the id a valid packet %d listed within %v: the client never queries, so whether it would query a known id is not observable", r.seq, answerWait)
		}
		r.settle(afterAnswer)
		if q.count[x] > 0 {
			t.Failf("packet %d: CreateEntity %d, then Snapshots listing it in packets %d to %d; the client sent QueryEntity %d at %v", seq, x, seq+1, seq+4, x, q.first(x))
		}
	}},
	{ID: "8.1/1", Level: Must, Title: "the client MUST drop a Snapshot whose entityCount is greater than 47", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		ids := make([]uint32, rtype.MaxSnapshotStates)
		for i := range ids {
			ids[i] = badID(seq)<<8 | uint32(i+1)
		}
		// 48 states do not fit a datagram (§2.2): the 47 that do follow.
		r.dropped(drop{what: "packet " + itoa(seq) + ": a Snapshot with entityCount 48 and 47 states, ids " + itoa(ids[0]) + " to " + itoa(ids[46]), ids: ids}, func() {
			r.send(snapshotRaw(r.tick(), rtype.MaxSnapshotStates+1, ids...))
		})
	}},
	{ID: "8.1/2", Level: Must, Title: "the client MUST drop a Snapshot whose payload size is not exactly 6 + 11 x entityCount", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		long := snapshotAt(r.tick(), x)
		long.Payload = append(long.Payload, 0)
		r.dropped(drop{what: "packet " + itoa(seq) + ": a Snapshot with entityCount 1 listing id " + itoa(x) + ", then 1 byte more", ids: []uint32{x}}, func() {
			r.send(long)
		})
		seq = r.seq + 1
		x = badID(seq)
		short := snapshotRaw(r.tick(), 2, x)
		short.Payload = append(short.Payload, 0, 0, 0)
		r.dropped(drop{what: "packet " + itoa(seq) + ": a Snapshot with entityCount 2 listing id " + itoa(x) + ", then 3 bytes of a second state", ids: []uint32{x}}, func() {
			r.send(short)
		})
	}},
	{ID: "8.1/3", Level: Must, Title: "the client MUST drop a Snapshot if any networkId is 0", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x1, x2 := badID(seq), goodID(seq)<<4
		r.dropped(drop{what: "packet " + itoa(seq) + ": a Snapshot listing ids " + itoa(x1) + ", 0, " + itoa(x2), ids: []uint32{x1, x2}}, func() {
			r.send(r.snap(x1, 0, x2))
		})
	}},
	{ID: "8.1/4", Level: Must, Title: "the client MUST drop a Snapshot if the same networkId appears twice", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x1, x2 := badID(seq), goodID(seq)<<4
		r.dropped(drop{what: "packet " + itoa(seq) + ": a Snapshot listing ids " + itoa(x1) + ", " + itoa(x2) + ", " + itoa(x1), ids: []uint32{x1, x2}}, func() {
			r.send(r.snap(x1, x2, x1))
		})
	}},
	{ID: "8.2/1", Level: Must, Title: "the client MUST drop a CreateEntity whose payload is not exactly 16 bytes", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x1, x2 := badID(seq), goodID(seq)<<4
		long, _ := create(r.tick(), x1).AppendBinary(nil)
		short, _ := create(r.tick(), x2).AppendBinary(nil)
		r.send(rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: append(long, 0)},
			rtype.RawMessage{Type: rtype.TypeCreateEntity, Payload: short[:15]})
		// Dropped, they leave both ids unknown: a Snapshot listing them
		// makes the client query them.
		r.send(r.snap(x1, x2))
		r.processed(want{what: "packet " + itoa(seq) + ": a 17-byte CreateEntity " + itoa(x1) + " and a 15-byte one " + itoa(x2) + "; packet " + itoa(seq+1) + ": a Snapshot listing both",
			ids: []uint32{x1, x2}, why: "the client took a malformed CreateEntity for a creation"})
	}},
	{ID: "8.3/1", Level: Should, Title: "the client SHOULD remember recently destroyed ids so that it does not query them again when a late Snapshot still lists them", run: func(t *check) {
		r := t.connect()
		seq := r.seq + 1
		x := badID(seq)
		tick := r.tick()
		r.send(create(tick, x))
		r.send(rtype.DestroyEntity{ServerTick: tick + 6, NetworkID: x, Reason: rtype.DestroyGameplay})
		r.dropped(drop{what: "packet " + itoa(seq) + ": CreateEntity " + itoa(x) + " at tick " + itoa(tick) + "; packet " + itoa(seq+1) + ": DestroyEntity at tick " + itoa(tick+6) +
			"; packet " + itoa(seq+2) + ": a late Snapshot of tick " + itoa(tick+3) + " listing it", ids: []uint32{x}, why: "it queried a destroyed id",
			unseen: "whether it would query a destroyed id is not observable"}, func() {
			r.send(snapshotAt(tick+3, x))
		})
	}},
}

// pingWait is how long a client that pings may take to do so: about every
// second (§7.2).
const pingWait = 2500 * time.Millisecond

// The §7.4 watch: the unknown id listed a Snapshot every snapEvery, about
// as often as a server sends them (§8.1), for queryWatch, three times a
// once-a-second retry.
const (
	snapEvery  = 50 * time.Millisecond
	queryWatch = 3 * time.Second
)

// inputWhere watches the client's Inputs for a second and returns the first
// bad accepts; the case is skipped when no Input came, its rule then
// unobservable.
func (r *remote) inputWhere(bad func(m msg) bool) (msg, bool) {
	n := 0
	m, ok := r.expect(time.Second, func(m msg) bool {
		if m.raw.Type != rtype.TypeInput {
			return false
		}
		n++
		return bad(m)
	})
	if n == 0 {
		r.t.waitedOut("no Input within 1 s")
	}
	return m, ok
}
