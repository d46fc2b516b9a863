package conformance

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype"
)

// In server mode the suite's client drops what a spec client must: a
// server packet whose sequence is a duplicate or too old (§5.2), or that
// carries another connection's id (§5.4). The messages of such a packet
// never reach the case, so a verdict that waited for them reads a broken
// numbering or id, which cases 5.2/1 and 5.1/4 judge, not the rule of the
// case: the monitor of the run saw the packet before the case dropped it
// (package wiremon), and a failure of the case is then not run when the
// monitor judged that rule broken, and says what was dropped otherwise.

// lostPacket is a server packet carrying messages that the suite's client
// dropped.
type lostPacket struct {
	p       *peer
	seq     uint32
	id      uint32         // the connectionId it carried
	class   rtype.SeqClass // its §5.2 class, when of the connection
	foreign bool
	msgs    int
	at      time.Time
	// sum is the hash of its bytes past the connectionId: the same
	// packet accepted too (a copy under another id, a datagram the
	// network duplicated) lost nothing.
	sum uint64
}

// maxLost bounds the dropped packets a case keeps.
const maxLost = 16

// recentPackets remembers, per sequence, the hash of the last packets
// accepted.
type recentPackets [64]struct{ seq, sum uint64 }

func (r *recentPackets) add(seq uint32, sum uint64) {
	r[seq%64] = struct{ seq, sum uint64 }{uint64(seq), sum}
}

// has reports whether packet seq with bytes of hash sum was accepted.
func (r *recentPackets) has(seq uint32, sum uint64) bool {
	e := r[seq%64]
	return e.seq == uint64(seq) && e.sum == sum
}

// packetSum hashes a packet's bytes past its connectionId.
func packetSum(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b[4:])
	return h.Sum64()
}

// dropped notes packet pk, dropped by the suite's client: foreign for
// another connection's id, else for its §5.2 class. Only a server-mode
// player once welcomed counts, and only a packet with messages.
func (p *peer) dropped(dg datagram, pk rtype.Packet, class rtype.SeqClass, foreign bool) {
	if p.t.cli.harness != nil || p.id == 0 {
		return
	}
	n := 0
	for range pk.Messages() {
		n++
	}
	if n == 0 {
		return
	}
	h := pk.Header()
	sum := packetSum(dg.b)
	if p.recent.has(h.Sequence, sum) {
		return // a copy of a packet taken
	}
	l := lostPacket{p: p, seq: h.Sequence, id: h.ConnectionID, class: class, foreign: foreign, msgs: n, at: dg.at, sum: sum}
	t := p.t
	t.mu.Lock()
	if len(t.srv.lost) < maxLost {
		t.srv.lost = append(t.srv.lost, l)
	}
	t.srv.lostCount++
	t.mu.Unlock()
}

// describe returns the case that judges what made the suite drop l, and
// why it did.
func (l lostPacket) describe(t *check) (judge, why string) {
	switch {
	case l.foreign:
		return "5.1/4", fmt.Sprintf("the server's packets to connection %d carry connectionId %d (its packet %d at %v, with %d message(s), dropped as §5.4 asks)",
			l.p.id, l.id, l.seq, t.at(l.at), l.msgs)
	case l.class == rtype.SeqTooOld:
		return "5.2/1", fmt.Sprintf("the server's packets go back to sequence %d (its packet at %v, with %d message(s), more than 32 below the highest, dropped as too old, §5.2)",
			l.seq, t.at(l.at), l.msgs)
	}
	return "5.2/1", fmt.Sprintf("the server's packets repeat sequence %d (its packet at %v, with %d message(s), numbered %d again, dropped as a duplicate, §5.2)",
		l.seq, t.at(l.at), l.msgs, l.seq)
}

// blame returns how a case that did not pass ends when its client
// dropped server packets with messages that were not got otherwise. A
// failure is not run when the case judging the drop failed in this run,
// and says what was dropped otherwise; a case not run says the drop first,
// as what it waited for may have been in those packets. A verdict formed
// in a tap reads every datagram, dropped or not, and stands, as does a
// failure on what the case saw happen (failSeen).
func (t *check) blame(o Outcome, detail string) (Outcome, string) {
	if t.cli.harness != nil {
		return o, detail
	}
	t.mu.Lock()
	judged, stands := t.judged, t.tapping || t.evident
	t.mu.Unlock()
	if judged || stands && o == Fail { // judged: the players are no longer the case's to read
		return o, detail
	}
	judge, why, count := t.lost()
	if judge == "" || t.id == judge {
		return o, detail
	}
	if count > 1 {
		why = fmt.Sprintf("%s; %d such packets dropped in the case", why, count)
	}
	rest := fmt.Sprintf("not run: %s, which case %s judges; ", why, judge)
	switch {
	case o == NotRun:
		return NotRun, rest + strings.TrimPrefix(detail, "not run: ")
	case t.brokenOverRun(judge):
		return NotRun, rest + "without them: " + detail
	}
	return Fail, fmt.Sprintf("%s; meanwhile %s", detail, why)
}

// lost returns the case that judges what made the case's client drop the
// first server packet with messages it got no copy of, why it dropped
// it, and how many it dropped; judge is "" when none.
func (t *check) lost() (judge, why string, count int) {
	t.mu.Lock()
	lost, count := append([]lostPacket(nil), t.srv.lost...), t.srv.lostCount
	t.mu.Unlock()
	for _, l := range lost {
		if !l.p.recent.has(l.seq, l.sum) {
			judge, why = l.describe(t)
			return judge, why, count
		}
	}
	return "", "", count
}

// tap says whether a tap of the case runs.
func (t *check) tap(on bool) {
	t.mu.Lock()
	t.tapping = on
	t.mu.Unlock()
}
