package session

import "github.com/rtypeproto/rtype"

// snapshotRound is a round's Snapshot messages (§8.1), encoded once and
// copied into each player's packets: every player gets the same states,
// so the codec's work, the id checks included, is done once a round, not
// once a player. Its memory follows the world's size and is reused.
type snapshotRound struct {
	buf  []byte
	msgs []rtype.RawMessage
}

// encode makes the round the messages of states at tick, at most 47
// states each, as rtype.SplitSnapshot cuts them.
func (r *snapshotRound) encode(tick uint32, states []rtype.EntityState) {
	r.buf, r.msgs = r.buf[:0], r.msgs[:0]
	for m := range rtype.SplitSnapshot(tick, states) {
		start := len(r.buf)
		b, err := m.AppendBinary(r.buf)
		if err != nil {
			continue // none: a world's ids are unique and never 0
		}
		r.buf = b
		r.msgs = append(r.msgs, rtype.RawMessage{Type: rtype.TypeSnapshot, Payload: b[start:len(b):len(b)]})
	}
	// The payloads were cut from a buffer that may have moved as it grew.
	at := 0
	for i := range r.msgs {
		n := len(r.msgs[i].Payload)
		r.msgs[i].Payload = r.buf[at : at+n : at+n]
		at += n
	}
}
