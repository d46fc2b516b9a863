package conformance

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// wireRule is one rule the monitor judges on every datagram the
// implementation sends.
type wireRule uint8

const (
	ruleSize          wireRule = iota // §2.2: at most 548 bytes
	ruleWelcomeID                     // §4.3: a Welcome's id is not 0
	ruleConnID                        // §5.1: a packet carries its connection's id
	ruleNumbering                     // §5.2: 1, then one more each packet
	ruleFraming                       // §5.3: messages fill the packet exactly
	ruleTypeRange                     // §6: the sender's range of types
	ruleSnapCount                     // §8.1: at most 47 states
	ruleSnapSize                      // §8.1: 6 + 11 × entityCount bytes
	ruleSnapZeroID                    // §8.1: no networkId 0
	ruleSnapDupID                     // §8.1: no networkId twice
	ruleCreateSize                    // §8.2: 16 bytes
	ruleCreateZeroID                  // §8.2: no networkId 0
	ruleDestroySize                   // §8.3: 9 bytes
	ruleDestroyZeroID                 // §8.3: no networkId 0
	ruleDestroyReason                 // §8.3: reason at most 4
	numWireRules
)

// wireRuleOf gives, per mode, the case that reports each rule, what the
// rule is judged on, and the rung of the ladder that makes such traffic. A
// rule with no case in a mode is still counted.
var wireRuleOf = [numWireRules]struct {
	server, client string
	of             string
	need           capability
}{
	ruleSize:          {"2.2/1", "2.2/1", "datagrams", capWelcome},
	ruleWelcomeID:     {"4.3/2", "", "Welcomes", capWelcome},
	ruleConnID:        {"5.1/4", "4.3/3", "packets", capPackets},
	ruleNumbering:     {"5.2/1", "5.2/1", "packets", capPackets},
	ruleFraming:       {"5.3/7", "", "packets", capPackets},
	ruleTypeRange:     {"6/3", "6/2", "messages", capPackets},
	ruleSnapCount:     {"8.1/1", "", "Snapshots", capSnapshots},
	ruleSnapSize:      {"8.1/2", "", "Snapshots", capSnapshots},
	ruleSnapZeroID:    {"8.1/3", "", "Snapshots", capSnapshots},
	ruleSnapDupID:     {"8.1/4", "", "Snapshots", capSnapshots},
	ruleCreateSize:    {"8.2/1", "", "CreateEntity messages", capShip},
	ruleCreateZeroID:  {"8.2/2", "", "CreateEntity messages", capShip},
	ruleDestroySize:   {"8.3/1", "", "DestroyEntity messages", capShip},
	ruleDestroyZeroID: {"8.3/2", "", "DestroyEntity messages", capShip},
	ruleDestroyReason: {"8.3/3", "", "DestroyEntity messages", capShip},
}

// ruleFor returns the rule the case id of mode m reports.
func ruleFor(m Mode, id string) (wireRule, bool) {
	for r, of := range wireRuleOf {
		if m == ServerMode && of.server == id || m == ClientMode && of.client == id {
			return wireRule(r), true
		}
	}
	return 0, false
}

// message judges one message of a well-framed packet of connection id:
// its type's range (§6), and the sizes and values of the server's entity
// messages (§8), as the library's decoder checks them.
func (w *monitor) message(client netip.AddrPort, id, seq uint32, m *wiredump.Message, at time.Time) {
	t := m.Raw.Type
	inRange := t >= 0x80 && t <= 0xFF
	if w.mode == ClientMode {
		inRange = t >= 0x01 && t <= 0x7F
	}
	where := func(what string) func() string {
		return func() string {
			return fmt.Sprintf("%s's packet %d at %v carries %s", w.conn(client, id), seq, w.at(at), what)
		}
	}
	w.check(ruleTypeRange, inRange, where(fmt.Sprintf("a message of type %#04x (%d bytes)", uint16(t), len(m.Raw.Payload))))
	if w.mode != ServerMode {
		return
	}
	err, size := m.Err, len(m.Raw.Payload)
	is := func(e error) bool { return errors.Is(err, e) }
	switch t {
	case rtype.TypeSnapshot:
		count := -1
		if size >= rtype.SnapshotHeaderSize {
			count = int(m.Raw.Payload[4])<<8 | int(m.Raw.Payload[5])
		}
		w.check(ruleSnapCount, !is(rtype.ErrTooManyStates), where(fmt.Sprintf("a Snapshot with entityCount %d", count)))
		w.check(ruleSnapSize, !is(rtype.ErrPayloadSize), where(fmt.Sprintf("a Snapshot of %d bytes with entityCount %d", size, count)))
		// Only a Snapshot with states can list id 0, only one of two
		// states or more an id twice.
		if count >= 1 || is(rtype.ErrZeroNetworkID) {
			w.check(ruleSnapZeroID, !is(rtype.ErrZeroNetworkID), where("a Snapshot listing networkId 0"))
		}
		if count >= 2 || is(rtype.ErrDuplicateNetworkID) {
			w.check(ruleSnapDupID, !is(rtype.ErrDuplicateNetworkID), where("a Snapshot listing one networkId twice"))
		}
	case rtype.TypeCreateEntity:
		w.check(ruleCreateSize, !is(rtype.ErrPayloadSize), where(fmt.Sprintf("a CreateEntity of %d bytes", size)))
		w.check(ruleCreateZeroID, !is(rtype.ErrZeroNetworkID), where("a CreateEntity of networkId 0"))
	case rtype.TypeDestroyEntity:
		w.check(ruleDestroySize, !is(rtype.ErrPayloadSize), where(fmt.Sprintf("a DestroyEntity of %d bytes", size)))
		w.check(ruleDestroyZeroID, !is(rtype.ErrZeroNetworkID), where("a DestroyEntity of networkId 0"))
		reason := -1
		if size >= 9 {
			reason = int(m.Raw.Payload[8])
		}
		w.check(ruleDestroyReason, !is(rtype.ErrDestroyReason), where(fmt.Sprintf("a DestroyEntity with reason %d", reason)))
	}
}

// overRun ends a case whose rule the monitor judges over the whole run:
// failed with the first breach seen, in any case of the run; not run when
// the run had nothing the rule judges; passed otherwise. provoke makes
// traffic of the case's own when the run had none the rule judges yet,
// once the ladder says the implementation makes such traffic at all.
func (t *check) overRun(provoke func()) {
	mode := ServerMode
	if t.cli.harness != nil {
		mode = ClientMode
	}
	r, ok := ruleFor(mode, t.id)
	if !ok {
		panic("conformance: case " + t.id + " has no rule of the monitor")
	}
	seen, run := t.suite.wire.record(r)
	if seen.judged == 0 && provoke != nil {
		t.need(wireRuleOf[r].need)
		provoke()
		seen, run = t.suite.wire.record(r)
	}
	switch {
	case seen.broken > 1:
		t.Failf("%s; %d of %s %s broke the rule; the run: %s", seen.first, seen.broken, thousands(seen.judged), wireRuleOf[r].of, run)
	case seen.broken == 1:
		t.Failf("%s; the run: %s", seen.first, run)
	case seen.judged == 0:
		t.Skipf("the %s sent no %s the rule judges in the whole run: %s", mode, wireRuleOf[r].of, run)
	}
}
