package conformance

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"

	"github.com/rtypeproto/rtype"
)

// What the scripted server of client mode sends: Snapshots listing ids a
// client does not know, of any shape, and CreateEntity messages.

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

// hex formats b for a detail.
func hex(b []byte) string { return fmt.Sprintf("% x", b) }

// itoa formats an id or a sequence for a detail.
func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
