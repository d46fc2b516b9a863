package wiremon

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// breachingSteps break several rules, most more than once: §2.2, §5.2,
// §6, §8.1 and §9.1.
func breachingSteps() []step {
	far := func(tick uint32, x float64) rtype.Message {
		return rtype.Snapshot{ServerTick: tick, States: []rtype.EntityState{{NetworkID: 5, X: rtype.PosFromPixels(x)}}}
	}
	return []step{
		down(alice, rtype.AppendWelcome(nil, 7)),
		down(alice, pad(packet(7, 1), 549)),
		down(alice, pad(packet(7, 2), 600)),
		down(alice, packet(7, 3, far(3, 8100))),
		down(alice, packet(7, 4, far(6, -8150))),
		down(alice, packet(7, 4, far(9, 8100))),
		down(alice, raw(packet(7, 6), 0x0042, nil)),
		down(alice, raw(packet(7, 7), 0x0042, nil)),
		down(alice, raw(packet(7, 8), uint16(rtype.TypeSnapshot), snapBytes(2, 5, 5))),
	}
}

// TestMonitorSaw_EveryBreachInWords: Saw puts every datagram's first
// breach in words, not only each rule's first of the exchange.
func TestMonitorSaw_EveryBreachInWords(t *testing.T) {
	w := New(Server)
	w.Watch(server)
	var whys []string
	for _, s := range breachingSteps() {
		if r, why, ok := saw(w, s); ok {
			whys = append(whys, r.Section()+" "+why)
		}
	}
	if len(whys) != 7 {
		t.Fatalf("%d datagrams broke a rule, want 7: %q", len(whys), whys)
	}
	for _, why := range whys {
		if !strings.Contains(why, "into the run") {
			t.Errorf("breach %q, want it in words, with its time", why)
		}
	}
	if whys[1] == whys[0] || whys[6] == whys[5] {
		t.Errorf("a repeated breach in the words of the first: %q", whys)
	}
}

// TestMonitorNote_SameRecords: Note counts and words each rule's first
// breach as Saw does.
func TestMonitorNote_SameRecords(t *testing.T) {
	records := func(note bool) (recs [NumRules]Record, p Positions) {
		w := New(Server)
		w.Watch(server)
		at := w.start
		for _, s := range breachingSteps() {
			at = at.Add(time.Second)
			src, dst := server, s.client
			if s.toServer {
				src, dst = dst, src
			}
			if note {
				w.Note(src, dst, s.b, at)
			} else {
				w.Saw(src, dst, s.b, at)
			}
		}
		for r := range NumRules {
			recs[r] = w.Record(r)
		}
		return recs, w.Positions()
	}
	sawRecs, sawPos := records(false)
	noteRecs, notePos := records(true)
	if diff := cmp.Diff(sawRecs, noteRecs); diff != "" {
		t.Errorf("records (-Saw +Note):\n%s", diff)
	}
	if diff := cmp.Diff(sawPos, notePos); diff != "" {
		t.Errorf("positions (-Saw +Note):\n%s", diff)
	}
	for _, r := range []Rule{Size, Numbering, TypeRange, Clamp} {
		if sawRecs[r].Broken != 2 {
			t.Errorf("%s broken %d times, want 2", r.Section(), sawRecs[r].Broken)
		}
	}
}
