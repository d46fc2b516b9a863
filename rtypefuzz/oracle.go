package rtypefuzz

import (
	"fmt"
	"strings"
	"testing"
)

// Oracle is what makes a run's observation a finding.
type Oracle uint8

// Oracles, each the rule it enforces.
const (
	// StoppedAnswering: a healthy connection's Ping got no Pong within
	// LiveWait and a fresh Hello no answer: a crash or a hang (§12). Of a
	// client: no datagram from it within LiveWait while connected, when
	// it owes an Input every frame (§7.1).
	StoppedAnswering Oracle = iota + 1
	// Exited: the implementation's process ended, by itself or by a
	// signal (§12). Of a client, an end the fuzzer gave it no reason for:
	// see FuzzClient.
	Exited
	// Amplification: an invalid datagram from an address without a
	// connection got an answer (§12).
	Amplification
	// Oversize: the implementation sent a datagram over 548 bytes (§2.2).
	Oversize
	// Invalid: the implementation sent a datagram or a message a receiver
	// must drop (§4, §5.3, §6 to §8), or broke a rule of its connection
	// across datagrams: a packet of another connection's id (§5.1), a
	// sequence repeated or going back (§5.2), a position wrapped across
	// the range (§9.1). The rules are conformance's, judged by the same
	// monitor.
	Invalid
	// MemoryGrew: the implementation's resident memory grew past
	// Options.MaxRSS while the fuzzer's connections were bounded (§12).
	MemoryGrew
)

var oracles = [...]struct{ name, section string }{
	StoppedAnswering: {"stopped-answering", "§12"},
	Exited:           {"process-exited", "§12"},
	Amplification:    {"answered-unconnected", "§12"},
	Oversize:         {"datagram-over-548", "§2.2"},
	Invalid:          {"sent-invalid", "§4 to §9.1"},
	MemoryGrew:       {"memory-grew", "§12"},
}

// String returns the oracle's stable name, as reproducers write it.
func (o Oracle) String() string {
	if int(o) < len(oracles) && o != 0 {
		return oracles[o].name
	}
	return fmt.Sprintf("oracle(%d)", uint8(o))
}

// Section returns the section of the rule the oracle enforces.
func (o Oracle) Section() string {
	if int(o) < len(oracles) && o != 0 {
		return oracles[o].section
	}
	return "§12"
}

// Finding is what a run found: the oracle, what it saw, and the datagrams
// that trigger it.
type Finding struct {
	Oracle Oracle
	// Detail says what was observed, such as "no Pong within 1s of a
	// Ping, no answer to a fresh Hello".
	Detail string
	// Sent are the datagrams the fuzzer sent in the session, after its
	// opening, that trigger the finding: shrunk when Shrunk is set. Of an
	// amplification (answered-unconnected), it is the datagram answered,
	// sent from an address without a connection.
	Sent []Datagram
	// Conn is the session's connection id, which Sent's packets carry; 0
	// for an amplification.
	Conn   uint32
	Shrunk bool
	// Unprovoked is set when the finding fires with no fuzzed datagram:
	// the implementation's own traffic, in a session that only opened and
	// lives on, breaks the rule. Sent is then empty.
	Unprovoked bool
	// Capture is the session both ways, its opening first (Hello,
	// Welcome, the implementation's answers), for WritePcap: that of the
	// replay that confirmed the shrunk Sent, else the run's own, up to the
	// finding.
	Capture []Datagram
	// Last are the last datagrams of the run before the finding, both
	// ways, for the report.
	Last []Datagram
}

// ParseOracle returns the oracle of name, as String gives it.
func ParseOracle(name string) (Oracle, bool) {
	for o := range oracles {
		if o != 0 && oracles[o].name == name {
			return Oracle(o), true
		}
	}
	return 0, false
}

// Repro returns the finding's reproducer, of a run against t from seed.
func (f *Finding) Repro(t Target, seed uint64) *Repro {
	return &Repro{Target: t, Oracle: f.Oracle.String(), Section: f.Oracle.Section(), Detail: f.Detail,
		Seed: seed, Datagrams: f.Sent, Conn: f.Conn}
}

// fail fails t with the finding of a run against target, if any: its
// oracle, the rule, and the reproducer file.
func fail(t testing.TB, f *Finding, target Target, seed uint64) {
	t.Helper()
	if f == nil {
		return
	}
	var b strings.Builder
	_, _ = f.Repro(target, seed).WriteTo(&b)
	t.Errorf("rtypefuzz: %s (%s): %s\n%s", f.Oracle, f.Oracle.Section(), f.Detail, b.String())
}
