package conformance

import (
	"encoding/binary"
	"time"

	"github.com/rtypeproto/rtype"
)

// watcher records the entity messages one player receives, as sent, so
// that cases can judge sizes and values a receiver would drop. Every list
// is bounded, whatever the server sends (§12).
type watcher struct {
	creates  []seenCreate
	destroys []seenDestroy
	snaps    []seenSnap
}

// maxWatch bounds each list of a watcher.
const maxWatch = 4096

// seenCreate is one CreateEntity message (§8.2) as received.
type seenCreate struct {
	id   uint32
	arch rtype.Archetype
	x, y float64
	at   time.Time
}

// seenDestroy is one DestroyEntity message (§8.3) as received.
type seenDestroy struct {
	id     uint32
	reason uint8
}

// seenSnap is one Snapshot message (§8.1) as received.
type seenSnap struct {
	tick  uint32
	count int // the entityCount field
	size  int // of the payload
	// states are those the payload holds, whatever entityCount says.
	states []rtype.EntityState
	seq    uint32 // sequence of the packet carrying it
	// sharesTick is set when its datagram holds another Snapshot of the
	// same tick (rawSnaps).
	sharesTick bool
	at         time.Time
}

// see records one message of a valid packet.
func (w *watcher) see(m msg) {
	b := m.raw.Payload
	switch m.raw.Type {
	case rtype.TypeCreateEntity:
		if len(w.creates) < maxWatch {
			w.creates = append(w.creates, parseCreate(b, m.at))
		}
	case rtype.TypeDestroyEntity:
		if len(w.destroys) < maxWatch {
			var d seenDestroy
			if len(b) >= 8 {
				d.id = binary.BigEndian.Uint32(b[4:8])
			}
			if len(b) >= 9 {
				d.reason = b[8]
			}
			w.destroys = append(w.destroys, d)
		}
	case rtype.TypeSnapshot:
		if len(w.snaps) < maxWatch {
			w.snaps = append(w.snaps, parseSnap(b, m.hdr.Sequence, m.at))
		}
	}
}

// valid reports whether a client would take the Snapshot (§8.1).
func (s seenSnap) valid() bool {
	if s.count < 0 || s.count > rtype.MaxSnapshotStates || s.count != len(s.states) || s.size != rtype.SnapshotHeaderSize+11*s.count {
		return false
	}
	for i, st := range s.states {
		if st.NetworkID == 0 {
			return false
		}
		for _, o := range s.states[:i] {
			if o.NetworkID == st.NetworkID {
				return false
			}
		}
	}
	return true
}

// parseCreate reads a CreateEntity payload as far as it goes.
func parseCreate(b []byte, at time.Time) seenCreate {
	c := seenCreate{at: at}
	if len(b) >= 8 {
		c.id = binary.BigEndian.Uint32(b[4:8])
	}
	if len(b) >= 14 {
		c.arch = rtype.Archetype(binary.BigEndian.Uint16(b[8:10]))
		c.x = rtype.Pos16(binary.BigEndian.Uint16(b[10:12])).Pixels()
		c.y = rtype.Pos16(binary.BigEndian.Uint16(b[12:14])).Pixels()
	}
	return c
}

// maxStates bounds the states kept of one Snapshot, above the 47 a valid
// one holds so that an oversize one is seen as such.
const maxStates = 64

// parseSnap reads a Snapshot payload: its header, and the whole states it
// holds, at most maxStates.
func parseSnap(b []byte, seq uint32, at time.Time) seenSnap {
	s := seenSnap{size: len(b), seq: seq, at: at, count: -1}
	if len(b) < rtype.SnapshotHeaderSize {
		return s
	}
	s.tick = binary.BigEndian.Uint32(b[0:4])
	s.count = int(binary.BigEndian.Uint16(b[4:6]))
	for off := rtype.SnapshotHeaderSize; off+11 <= len(b) && len(s.states) < maxStates; off += 11 {
		st := b[off : off+11]
		s.states = append(s.states, rtype.EntityState{
			NetworkID:  binary.BigEndian.Uint32(st[0:4]),
			EntityType: st[4],
			X:          rtype.Pos16(binary.BigEndian.Uint16(st[5:7])),
			Y:          rtype.Pos16(binary.BigEndian.Uint16(st[7:9])),
			Rotation:   rtype.Rot16(binary.BigEndian.Uint16(st[9:11])),
		})
	}
	return s
}

// rawSnaps returns the Snapshot messages a datagram from the server
// carries, read message by message as far as the framing goes, even in a
// datagram too large or badly framed to be a valid packet, so that the
// Snapshot rules can be judged on what a client would drop; each one
// notes whether another of its tick shares the datagram (§8.1).
func rawSnaps(b []byte, at time.Time) []seenSnap {
	if len(b) < rtype.PacketHeaderSize {
		return nil
	}
	seq := binary.BigEndian.Uint32(b[4:8])
	var out []seenSnap
	area := b[rtype.PacketHeaderSize:]
	for m, rest, ok := rtype.SplitMessage(area); ok && len(out) < 64; m, rest, ok = rtype.SplitMessage(rest) {
		if m.Type == rtype.TypeSnapshot {
			out = append(out, parseSnap(m.Payload, seq, at))
		}
	}
	for i := range out {
		for j := range out[:i] {
			if out[i].tick == out[j].tick {
				out[i].sharesTick, out[j].sharesTick = true, true
			}
		}
	}
	return out
}

// createdAfter returns the first CreateEntity received after since that
// ok accepts.
func (w *watcher) createdAfter(since time.Time, ok func(c seenCreate) bool) (seenCreate, bool) {
	for _, c := range w.creates {
		if !c.at.Before(since) && ok(c) {
			return c, true
		}
	}
	return seenCreate{}, false
}

// destroyed returns the first DestroyEntity received for id.
func (w *watcher) destroyed(id uint32) (seenDestroy, bool) {
	for _, d := range w.destroys {
		if d.id == id {
			return d, true
		}
	}
	return seenDestroy{}, false
}
