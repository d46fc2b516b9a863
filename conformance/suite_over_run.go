package conformance

import (
	"github.com/rtypeproto/rtype/internal/wiremon"
)

// The rules of every datagram the implementation sends are judged over
// the whole run by the run's monitor (package wiremon), which sees each
// datagram any socket of the run sends to the implementation or receives
// from it. overRunCases gives, per mode, the case that reports each rule,
// and the rung of the ladder that makes such traffic. A rule with no case
// in a mode is counted and not reported.
var overRunCases = [wiremon.NumRules]struct {
	server, client string
	need           capability
}{
	wiremon.Size:          {"2.2/1", "2.2/1", capWelcome},
	wiremon.WelcomeID:     {"4.3/2", "", capWelcome},
	wiremon.ConnID:        {"5.1/4", "4.3/3", capPackets},
	wiremon.Numbering:     {"5.2/1", "5.2/1", capPackets},
	wiremon.Framing:       {"5.3/7", "", capPackets},
	wiremon.TypeRange:     {"6/3", "6/2", capPackets},
	wiremon.SnapCount:     {"8.1/1", "", capSnapshots},
	wiremon.SnapSize:      {"8.1/2", "", capSnapshots},
	wiremon.SnapZeroID:    {"8.1/3", "", capSnapshots},
	wiremon.SnapDupID:     {"8.1/4", "", capSnapshots},
	wiremon.CreateSize:    {"8.2/1", "", capShip},
	wiremon.CreateZeroID:  {"8.2/2", "", capShip},
	wiremon.DestroySize:   {"8.3/1", "", capShip},
	wiremon.DestroyZeroID: {"8.3/2", "", capShip},
	wiremon.DestroyReason: {"8.3/3", "", capShip},
}

// overRunRule returns the rule case id of mode m reports.
func overRunRule(m Mode, id string) (wiremon.Rule, bool) {
	for r, c := range overRunCases {
		if m == ServerMode && c.server == id || m == ClientMode && c.client == id {
			return wiremon.Rule(r), true
		}
	}
	return 0, false
}

// mode is the mode of the case's run.
func (t *check) mode() Mode {
	if t.cli.harness != nil {
		return ClientMode
	}
	return ServerMode
}

// brokenOverRun reports whether the monitor saw the rule case id reports
// broken so far.
func (t *check) brokenOverRun(id string) bool {
	r, ok := overRunRule(t.mode(), id)
	return ok && t.suite.wire.Record(r).Broken > 0
}

// overRun ends a case whose rule the monitor judges over the whole run:
// failed with the first breach seen, in any case of the run; not run when
// the run had nothing the rule judges; passed otherwise. provoke makes
// traffic of the case's own when the run had none the rule judges yet,
// once the ladder says the implementation makes such traffic at all.
func (t *check) overRun(provoke func()) {
	r, ok := overRunRule(t.mode(), t.id)
	if !ok {
		panic("conformance: case " + t.id + " reports no rule of the monitor")
	}
	seen := t.suite.wire.Record(r)
	if seen.Judged == 0 && provoke != nil {
		t.need(overRunCases[r].need)
		provoke()
		seen = t.suite.wire.Record(r)
	}
	run := t.suite.wire.Totals()
	switch {
	case seen.Broken > 1:
		t.Failf("%s; %d of %s %s broke the rule; the run: %s", seen.First, seen.Broken, wiremon.Thousands(seen.Judged), r.Of(), run)
	case seen.Broken == 1:
		t.Failf("%s; the run: %s", seen.First, run)
	case seen.Judged == 0:
		t.Skipf("the %s sent no %s the rule judges in the whole run: %s", t.mode(), r.Of(), run)
	}
}
