package conformance

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"github.com/rtypeproto/rtype"
)

// Client mode learns whether the client processed a packet from the
// QueryEntity it SHOULD send for an id a Snapshot lists without a
// CreateEntity (§7.4): a packet the client must drop lists an unknown id,
// and a valid packet after it lists another one, the control. Once the
// control is queried, the dropped packet's id must not be, nor its
// sequence acked (§5.1). A client that never queries skips those cases.

// Timing of client mode's probes: how long a client may take to act on a
// packet (it may read them between frames), how long it is then watched
// for a late answer to a packet it should have dropped, and the wait for
// a Welcome it should ignore to show.
const (
	answerWait  = time.Second
	afterAnswer = 100 * time.Millisecond
	ignoreWait  = 300 * time.Millisecond
	// inFlight is how long after a Welcome or Rejected a Hello sent before
	// it may still arrive.
	inFlight = 200 * time.Millisecond
)

// Network ids of the probes, derived from the sequence of the packet that
// first lists them, so that the ids of a case never collide and its
// details read the same from run to run: each case's client is fresh, so
// every id is unknown to it until the case creates it.
func badID(seq uint32) uint32  { return 0x00B00000 + seq }
func goodID(seq uint32) uint32 { return 0x00C00000 + seq }

// statePayload appends one §8.1 entity state for id, a Bydos at (2000, 300).
func statePayload(b []byte, id uint32) []byte {
	b = binary.BigEndian.AppendUint32(b, id)
	b = append(b, byte(rtype.ArchetypeEnemyBidos&0xFF)) // the low 8 bits (§8.1)
	b = binary.BigEndian.AppendUint16(b, uint16(rtype.PosFromPixels(2000)))
	b = binary.BigEndian.AppendUint16(b, uint16(rtype.PosFromPixels(300)))
	return binary.BigEndian.AppendUint16(b, 0)
}

// snapshotRaw builds a Snapshot with any entityCount and the states of ids,
// valid or not: the suite's encoders would refuse the invalid ones.
func snapshotRaw(tick uint32, count uint16, ids ...uint32) rtype.RawMessage {
	b := make([]byte, 0, rtype.SnapshotHeaderSize+rtype.EntityStateSize*len(ids))
	b = binary.BigEndian.AppendUint32(b, tick)
	b = binary.BigEndian.AppendUint16(b, count)
	for _, id := range ids {
		b = statePayload(b, id)
	}
	return rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: b}
}

// snapshotAt is a well-formed Snapshot of tick listing ids.
func snapshotAt(tick uint32, ids ...uint32) rtype.RawMessage {
	return snapshotRaw(tick, uint16(len(ids)), ids...)
}

// snap is a Snapshot listing ids for the next packet, its serverTick 3 per
// packet, as a server sends one every 3 ticks (§8.1).
func (r *remote) snap(ids ...uint32) rtype.RawMessage {
	return snapshotAt(r.tick(), ids...)
}

func (r *remote) tick() uint32 { return 3 * (r.seq + 1) }

// create is a valid CreateEntity of a Bydos id at tick (§8.2).
func create(tick, id uint32) rtype.CreateEntity {
	return rtype.CreateEntity{ServerTick: tick, NetworkID: id, EntityType: rtype.ArchetypeEnemyBidos,
		X: rtype.PosFromPixels(2000), Y: rtype.PosFromPixels(300)}
}

// foreign opens a socket on the server's address with another port: its
// datagrams come from a foreign source (§3).
func (r *remote) foreign() *endpoint {
	return r.t.socket(netip.AddrPortFrom(r.h.addr().Addr(), 0))
}

// queryLog records the ids the client queries, first arrival each.
type queryLog struct {
	first map[uint32]time.Duration
	count map[uint32]int
}

// maxLogged bounds the ids a queryLog keeps, whatever the client sends.
const maxLogged = 4096

// logQueries records the client's QueryEntity messages from now on.
func (r *remote) logQueries() *queryLog {
	q := &queryLog{first: map[uint32]time.Duration{}, count: map[uint32]int{}}
	r.observe(func(m msg) {
		if m.raw.Type != rtype.TypeQueryEntity || len(m.raw.Payload) < 4 {
			return
		}
		id := binary.BigEndian.Uint32(m.raw.Payload)
		if _, ok := q.count[id]; !ok && len(q.count) >= maxLogged {
			return
		}
		if q.count[id] == 0 {
			q.first[id] = r.t.at(m.at)
		}
		q.count[id]++
	})
	return q
}

// anyOf returns the first of ids the client queried, if one.
func (q *queryLog) anyOf(ids []uint32) (uint32, bool) {
	for _, id := range ids {
		if q.count[id] > 0 {
			return id, true
		}
	}
	return 0, false
}

// control sends a valid packet listing a fresh id and waits for its
// query; the case is skipped when none comes, as whether the client
// processed the packets before is then unobservable.
func (r *remote) control() {
	seq := r.seq + 1
	y := goodID(seq)
	r.send(r.snap(y))
	if _, ok := r.expect(answerWait, asked(y)); !ok {
		r.t.Skipf("no QueryEntity for id %d within %v of the valid packet %d whose Snapshot listed it: the client never queries, so whether it processed a packet is not observable", y, answerWait, seq)
	}
}

// drop describes what the client must not process: ids listed by a
// Snapshot in it, and the sequence of the packet not to ack (0: the
// packet is valid and acked, only a message in it is dropped).
type drop struct {
	what string
	ids  []uint32
	seq  uint32
	// why concludes a query of one of ids; empty means the usual one.
	why string
}

// dropped runs send, which sends what d describes, then the control, and
// fails if the client queried one of d's ids or acked d's packet.
func (r *remote) dropped(d drop, send func()) {
	q := r.logQueries()
	var acked *msg
	if d.seq != 0 {
		r.observe(func(m msg) {
			if acked == nil && rtype.Acked(d.seq, m.hdr.Ack, m.hdr.AckBits) {
				acked = &m
			}
		})
	}
	send()
	r.control()
	r.settle(afterAnswer)
	if id, ok := q.anyOf(d.ids); ok {
		why := d.why
		if why == "" {
			why = "it processed what it must drop"
		}
		r.t.Failf("%s; the client sent QueryEntity %d at %v: %s", d.what, id, q.first[id], why)
	}
	if acked != nil {
		r.t.Failf("%s; the client's packet %d at %v acked it (ack %d, ackBits %#08x): it must drop the packet, not receive it",
			d.what, acked.hdr.Sequence, r.t.at(acked.at), acked.hdr.Ack, acked.hdr.AckBits)
	}
}

// processed waits for the queries of ids, listed by what was just sent
// (what says it); when one does not come, the control tells a client that
// dropped it (fail, concluding why, or that the client did not process it)
// from one that never queries (skip).
func (r *remote) processed(what, why string, ids ...uint32) {
	q := r.logQueries()
	r.poll(r.t.within(answerWait), func(msg) bool {
		_, missing := missingOf(q, ids)
		return !missing
	})
	id, missing := missingOf(q, ids)
	if !missing {
		return
	}
	r.control()
	if why == "" {
		why = "the client did not process it"
	}
	r.t.Failf("%s; no QueryEntity for id %d within %v, while a later valid packet listing another id got one: %s", what, id, answerWait, why)
}

func missingOf(q *queryLog, ids []uint32) (uint32, bool) {
	for _, id := range ids {
		if q.count[id] == 0 {
			return id, true
		}
	}
	return 0, false
}

// connected reports whether b can be a connected packet: 16 bytes or more.
func connected(b []byte) bool { return len(b) >= rtype.PacketHeaderSize }

// connID is the connectionId of a connected packet.
func connID(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// ignoredWelcome sends what must not pass for a Welcome (§3, §4.1, §4.3)
// with send, then a valid Welcome: the client must send no connected
// packet before it, and carry the valid Welcome's id after it. from, when
// not nil, is the foreign socket the first came from, where a client that
// took it may send its packets.
func (r *remote) ignoredWelcome(what string, from *endpoint, send func()) {
	send()
	if dg, ok := r.await(r.t.within(ignoreWait), func(dg datagram) bool { return connected(dg.b) }); ok {
		r.t.Failf("sent %s; the client answered with a %d-byte connected packet at %v, connectionId %d: it took it for a Welcome",
			what, len(dg.b), r.t.at(dg.at), connID(dg.b))
	}
	r.answeredElsewhere(what, from)
	good := r.h.id()
	r.welcome(good)
	welcomed := r.t.since()
	dg, ok := r.await(r.t.within(firstPacket), func(dg datagram) bool { return connected(dg.b) })
	if !ok {
		r.answeredElsewhere(what, from)
		r.t.Skipf("sent %s, then a valid Welcome with connectionId %d at %v: the client sent no packet within %v", what, good, welcomed, firstPacket)
	}
	if id := connID(dg.b); id != good {
		r.t.Failf("sent %s, then a valid Welcome with connectionId %d at %v; the client's packet at %v carries connectionId %d: it took the first for a Welcome",
			what, good, welcomed, r.t.at(dg.at), id)
	}
}

// answeredElsewhere fails the case if the client sent a connected packet
// to the foreign socket from, as a client that took its Welcome may.
func (r *remote) answeredElsewhere(what string, from *endpoint) {
	if from == nil {
		return
	}
	for range inboxSize { // what is queued, not a flood that goes on
		dg, ok := from.recv(time.Now())
		if !ok {
			return
		}
		if dg.from == r.to && connected(dg.b) {
			r.t.Failf("sent %s; the client sent a %d-byte connected packet to %v at %v, connectionId %d: it took it for a Welcome",
				what, len(dg.b), from.local, r.t.at(dg.at), connID(dg.b))
		}
	}
}

// hex formats b for a detail.
func hex(b []byte) string { return fmt.Sprintf("% x", b) }

// itoa formats an id or a sequence for a detail.
func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
