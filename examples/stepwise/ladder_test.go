package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/conformance"
)

// The ladder's rungs, lowest first, as conformance reports them: the name,
// the section that asks for it and the case that judges it.
var ladderRungs = []struct{ name, section, owner string }{
	{"handshake", "4.3", "4.2/1"},
	{"packets", "5", "5.3/5"},
	{"Ping/Pong", "7.2", "7.2/1"},
	{"ship", "8.2", "8.2/4"},
	{"Snapshots", "8.1", "10/1"},
	{"second player", "10", "10/5"},
	{"missiles", "7.1", "7.1/9"},
	{"Bydos", "10", "10/6"},
	{"rounds", "10", "10/6"},
}

// cite names rung i as a not-run detail quotes it: "packets (§5)".
func cite(i int) string {
	return fmt.Sprintf("%s (§%s)", ladderRungs[i].name, ladderRungs[i].section)
}

// Short names of the rung states, to write a ladder as a table row.
const (
	H = conformance.Held
	M = conformance.Missing
	U = conformance.Untried
)

// TestLadder pins what rtypecheck tells the author of each stage: the
// ladder of capabilities the suite climbs before its cases (handshake §4.3,
// packets §5, Ping/Pong §7.2, ship §8.2, Snapshots §8.1, second player §10,
// missiles §7.1, Bydos and rounds §10), rung by rung; the run's status; and
// that each case not run for want of a rung names that rung, never "the
// server may be full". Every stage runs in process, in memory and in
// virtual time (see runStage), the crash as the end of the server's
// socket; TestCrashAfterSnapshot runs the crashing program itself.
func TestLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the conformance suite five times")
	}
	for _, tc := range []struct {
		name string
		// stage to run in process; 0 runs the program with
		// -stage 4 -crash-after-snapshot.
		stage int
		// run, when not empty, selects the cases (Options.Run).
		run string
		// ladder is the state of each rung of ladderRungs.
		ladder []conformance.RungState
		status conformance.Status
		// fail lists cases that must fail: those judging a missing rung.
		fail []string
		// needs maps cases to the rung (index in ladderRungs) they
		// must be not run for want of.
		needs map[string]int
		// stopped is how Report.Stopped starts; empty when the run must
		// not stop.
		stopped string
	}{
		{
			// Stage 1 welcomes (§4.3) but answers no connected packet
			// (§5): every case beyond the handshake waits for packets.
			name:   "stage1_handshake_§4.3_then_packets_§5_missing",
			stage:  stageHandshake,
			ladder: []conformance.RungState{H, M, U, U, U, U, U, U, U},
			status: conformance.NonConformant,
			fail:   []string{"5.3/5"},
			needs:  map[string]int{"5.2/1": 1, "7.2/1": 1, "7.2/2": 1, "8.2/4": 1, "10/6": 1},
		},
		{
			// Stage 2 answers and acknowledges packets (§5) but sends no
			// Pong (§7.2).
			name:   "stage2_packets_§5_then_Ping/Pong_§7.2_missing",
			stage:  stagePackets,
			ladder: []conformance.RungState{H, H, M, U, U, U, U, U, U},
			status: conformance.NonConformant,
			fail:   []string{"7.2/1"},
			needs:  map[string]int{"7.2/2": 2, "8.2/4": 2, "10/6": 2},
		},
		{
			// Stage 3 answers Pings (§7.2) and Disconnect (§7.3) but
			// spawns no ship (§8.2).
			name:   "stage3_Ping/Pong_§7.2_then_ship_§8.2_missing",
			stage:  stagePing,
			ladder: []conformance.RungState{H, H, H, M, U, U, U, U, U},
			status: conformance.NonConformant,
			fail:   []string{"8.2/4"},
			// 6/3 judges the Pongs' type: it passes.
			needs: map[string]int{"8.1/1": 3, "8.1/2": 3, "8.1/3": 3, "8.1/4": 3, "8.1/5": 3,
				"8.2/1": 3, "8.2/2": 3, "8.2/5": 3, "10/6": 3},
		},
		{
			// Stage 4 has ships and Snapshots (§8.1, §8.2) and takes a
			// second player (§10), but fires no missile (§7.1) and
			// spawns no Bydos (§10). Only three cases, to keep it short:
			// the GAME cases judging missiles and Bydos fail, and 8.2/5
			// (CreateEntity of a missile, a MUST) is not run.
			name:   "stage4_ship_§8.2_then_missiles_§7.1_and_Bydos_§10_missing",
			stage:  stageShip,
			run:    `^(7\.1/9|8\.2/5|10/6)$`,
			ladder: []conformance.RungState{H, H, H, H, H, H, M, M, U},
			status: conformance.NonConformant,
			fail:   []string{"7.1/9", "10/6"},
			needs:  map[string]int{"8.2/5": 6},
		},
		{
			// -crash-after-snapshot exits after its first Snapshot
			// (§8.1), while the probe tries a second player (§10): the
			// run cannot judge it, every case is not run.
			name:    "stage4_crash_after_Snapshot_§8.1_undecided",
			ladder:  []conformance.RungState{H, H, H, H, H, U, U, U, U},
			status:  conformance.Undecided,
			stopped: "the server stopped answering during the ladder probe, trying " + cite(5),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var o conformance.Options
			if tc.run != "" {
				o.Run = regexp.MustCompile(tc.run)
			}
			rep := runStage(t, tc.stage, o)
			var text strings.Builder
			if err := rep.WriteText(&text, false); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if t.Failed() {
					t.Logf("the text report:\n%s", text.String())
				}
			}()

			// The ladder, rung by rung.
			if len(rep.Ladder) != len(ladderRungs) {
				t.Fatalf("%d rungs, want %d: %+v", len(rep.Ladder), len(ladderRungs), rep.Ladder)
			}
			first, missing := -1, map[int]bool{}
			for i, r := range rep.Ladder {
				want := ladderRungs[i]
				if r.Name != want.name || r.Section != want.section {
					t.Errorf("rung %d: %s (§%s), want %s (§%s)", i, r.Name, r.Section, want.name, want.section)
				}
				if r.State != tc.ladder[i] {
					t.Errorf("rung %s: %v, want %v (detail %q)", want.name, r.State, tc.ladder[i], r.Detail)
				}
				if r.State == conformance.Missing {
					missing[i] = true
					if first < 0 {
						first = i
					}
					if r.Case != want.owner {
						t.Errorf("missing rung %s: judged by case %s, want %s", want.name, r.Case, want.owner)
					}
					if r.Detail == "" {
						t.Errorf("missing rung %s: no detail", want.name)
					}
					if r.Next == "" {
						t.Errorf("missing rung %s: nothing said to build next", want.name)
					}
				} else if r.Detail != "" {
					t.Errorf("rung %s, %v: detail %q", want.name, r.State, r.Detail)
				}
			}
			if wantFirst := firstMissing(tc.ladder); first != wantFirst {
				t.Errorf("first missing rung %d, want %d", first, wantFirst)
			}

			// The status, and why the run stopped.
			if got := rep.Status(false); got != tc.status {
				t.Errorf("Status(false) = %v, want %v", got, tc.status)
			}
			if tc.stopped == "" && rep.Stopped != "" {
				t.Errorf("stopped: %s", rep.Stopped)
			}
			if tc.stopped != "" && !strings.HasPrefix(rep.Stopped, tc.stopped) {
				t.Errorf("stopped: %q, want it to start %q", rep.Stopped, tc.stopped)
			}

			// The cases: those judging a missing rung fail; each case not
			// run says why, naming the rung it waits for.
			byID := map[string]conformance.Result{}
			notRunFor := make([]int, len(ladderRungs)) // cases not run for each rung
			needing := 0                               // cases not run for want of any rung
			for _, r := range rep.Results {
				byID[r.Case.ID] = r
				if r.Outcome != conformance.NotRun {
					continue
				}
				if strings.Contains(r.Detail, "may be full") {
					t.Errorf("%s not run: %q blames a full server", r.Case.ID, r.Detail)
				}
				named := -1
				for i := range ladderRungs {
					if r.Detail == "not run: needs "+cite(i)+", which failed" {
						named = i
					}
				}
				if strings.HasPrefix(r.Detail, "not run: needs") {
					needing++
					if named < 0 {
						t.Errorf("%s not run: %q names no rung as conformance words it", r.Case.ID, r.Detail)
					}
				}
				if named >= 0 {
					notRunFor[named]++
					if !missing[named] {
						t.Errorf("%s not run for want of %s, which is not missing", r.Case.ID, ladderRungs[named].name)
					}
				}
				switch {
				case tc.stopped != "":
					if !strings.HasPrefix(r.Detail, "not run: "+tc.stopped) {
						t.Errorf("%s not run: %q, want it to say %q", r.Case.ID, r.Detail, tc.stopped)
					}
				case r.Case.Level == conformance.Must && named < 0:
					t.Errorf("MUST case %s not run: %q names no missing rung", r.Case.ID, r.Detail)
				}
			}
			if tc.stopped != "" {
				if pass, fail, notRun := rep.Summary(); pass+fail > 0 || notRun == 0 {
					t.Errorf("stopped in the probe: %d passed, %d failed, %d not run; want every case not run", pass, fail, notRun)
				}
			}
			for _, id := range tc.fail {
				if r, ok := byID[id]; !ok || r.Outcome != conformance.Fail {
					t.Errorf("case %s: %v (%q), want it to fail", id, r.Outcome, r.Detail)
				}
			}
			for id, rung := range tc.needs {
				want := "not run: needs " + cite(rung) + ", which failed"
				if r := byID[id]; r.Outcome != conformance.NotRun || r.Detail != want {
					t.Errorf("case %s: %v (%q), want not run: %q", id, r.Outcome, r.Detail, want)
				}
			}
			for i, r := range rep.Ladder {
				if r.NotRun != notRunFor[i] {
					t.Errorf("rung %s counts %d cases not run, the results name it in %d", r.Name, r.NotRun, notRunFor[i])
				}
			}
			if first >= 0 && notRunFor[first] == 0 {
				t.Errorf("no case not run for want of the first missing rung, %s", ladderRungs[first].name)
			}

			// The text report's first line is the ladder up to its
			// missing rungs, with the cases not run for want of them.
			var steps []string
			for i, s := range tc.ladder {
				switch s {
				case H:
					steps = append(steps, ladderRungs[i].name+" ✓")
				case M:
					steps = append(steps, ladderRungs[i].name+" ✗")
				}
			}
			want := strings.Join(steps, " · ")
			if needing > 0 {
				want += fmt.Sprintf(" → %d cases not run", needing)
			}
			if got := unwrapLadder(text.String()); got != want {
				t.Errorf("the text report's ladder line:\n  %q\nwant\n  %q", got, want)
			}
		})
	}
}

// firstMissing returns the index of the first missing rung, or -1.
func firstMissing(l []conformance.RungState) int {
	for i, s := range l {
		if s == M {
			return i
		}
	}
	return -1
}

// unwrapLadder returns the text report's first line, joined with the lines
// it goes on to (wrapped to 80 columns, indented by two).
func unwrapLadder(text string) string {
	lines := strings.Split(text, "\n")
	line := lines[0]
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "   ") {
			break
		}
		line += " " + l[2:]
	}
	return line
}
