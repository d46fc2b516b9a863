package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// The demo's smoke test: four bots on a loopback server for a second and a
// half all connect, receive Snapshots (§8.1, about 20 per second, §10), learn
// of every ship (§8.2, §10), get Pongs (§8.4) and leave cleanly (§7.3).
func TestDemoSmoke(t *testing.T) {
	t.Parallel()
	const d = 1500 * time.Millisecond
	var out, logs bytes.Buffer
	results, err := play(context.Background(), options{duration: d, bots: 4, logLevel: slog.LevelInfo, seed: 1}, &out, &logs)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 4 {
		t.Fatalf("%d results for 4 bots", len(results))
	}
	ids := map[uint32]bool{}
	for _, r := range results {
		if !r.Connected || r.Lost || r.Err != nil {
			t.Errorf("%s: connected=%v lost=%v err=%v", r.Name, r.Connected, r.Lost, r.Err)
			continue
		}
		ids[r.ConnectionID] = true
		// 1.5 s at 20 per second is 30; allow for a slow shared machine.
		if r.Client.Snapshots < 10 {
			t.Errorf("%s: %d snapshots in %v", r.Name, r.Client.Snapshots, d)
		}
		if r.EntitiesSeen < 4 {
			t.Errorf("%s: saw %d entities, fewer than the 4 ships", r.Name, r.EntitiesSeen)
		}
		if r.Inputs < 30 || r.Client.Pongs < 1 || uint64(len(r.RTT)) != r.Client.Pongs {
			t.Errorf("%s: %d inputs, %d pongs, %d RTT samples", r.Name, r.Inputs, r.Client.Pongs, len(r.RTT))
		}
		if r.Resends < 0 {
			t.Errorf("%s: server counters missing", r.Name)
		}
	}
	if len(ids) != 4 {
		t.Errorf("connection ids %v, want 4 distinct", ids)
	}
	for _, want := range []string{"player joined", "round started", "player left", "reason=ClientQuit"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("server log lacks %q:\n%s", want, logs.String())
		}
	}
	for _, e := range []string{"ERROR", "WARN"} {
		if strings.Contains(logs.String(), e) {
			t.Errorf("server logged %s:\n%s", e, logs.String())
		}
	}
}

// The demo exits 0 and prints one table line per bot when all went well,
// and 1 when a bot could not play: a fifth bot, started once the four
// others play, meets a full server (§10: four slots), which answers it
// Rejected (§4.4) or keeps it waiting for a slot; a version 1 server
// (-v1) answers nothing (§13.1). Either way stderr names it and says why.
func TestDemoExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		ok   int
		// fifth lists the statuses the fifth bot may end with.
		fifth []string
	}{
		{[]string{"-duration", "1s", "-n", "2"}, 0, 2, nil},
		{[]string{"-duration", "1s", "-n", "2", "-v1"}, 0, 2, nil},
		{[]string{"-duration", "1s", "-n", "5"}, 1, 4, []string{"rejected", "waiting"}},
		{[]string{"-duration", "1s", "-n", "5", "-v1"}, 1, 4, []string{"no-connect", "waiting"}},
		{[]string{"-duration", "0s"}, 2, 0, nil},
		{[]string{"-log", "loud"}, 2, 0, nil},
	}
	for _, tc := range tests {
		var out, errw bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errw)
		if code != tc.code {
			t.Errorf("demo %v exited %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, out.String(), errw.String())
			continue
		}
		exampletest.CheckWidth(t, fmt.Sprint("demo ", tc.args), withoutLog(out.String()+errw.String()), 80)
		ok := 0
		fifth := ""
		in := false // in the table whose last column is the status
		for _, line := range strings.Split(out.String(), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) > 1 && f[0] == "bot" && f[len(f)-1] == "status":
				in = true
			case len(f) == 0:
				in = false
			case in && f[len(f)-1] == "ok":
				ok++
			case in && f[0] == "bot-5":
				fifth = f[len(f)-1]
			}
		}
		if ok != tc.ok {
			t.Errorf("demo %v: %d bots ok in the table, want %d:\n%s", tc.args, ok, tc.ok, out.String())
		}
		if tc.fifth == nil {
			continue
		}
		if !slices.Contains(tc.fifth, fifth) {
			t.Errorf("demo %v: the fifth bot's status is %q, want one of %v:\n%s", tc.args, fifth, tc.fifth, out.String())
		}
		if want := "bot-5: " + fifth + ": "; !strings.Contains(errw.String(), want) {
			t.Errorf("demo %v: stderr lacks %q:\n%s", tc.args, want, errw.String())
		}
	}
}

// withoutLog returns the demo's output without the server's log records:
// the report is laid out to 80 columns, the width of a stream that is no
// terminal, but a log record is one line however long.
func withoutLog(out string) string {
	var report []string
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "time=") {
			report = append(report, line)
		}
	}
	return strings.Join(report, "\n")
}

// The progress keeps its schedule while the bots past the four slots wait
// for the four to play: at 60% loss the four need seconds to be welcomed
// (§4.2), and a 3 s demo must still show its 1.0 s and 2.0 s lines.
func TestDemoProgressOnTimeWithWaitingBots(t *testing.T) {
	t.Parallel()
	var out, errw bytes.Buffer
	args := []string{"-duration", "3s", "-n", "6", "-loss", "0.6", "-watch=false"}
	run(context.Background(), args, &out, &errw)
	for _, label := range []string{"1.0s", "2.0s"} {
		if !strings.Contains(out.String(), "\n  "+label+"  ") {
			t.Errorf("demo %v: no progress line at %s:\n%s", args, label, out.String())
		}
	}
}
