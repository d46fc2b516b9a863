package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
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
// others play, is answered Rejected (§4.4, §10: four slots).
func TestDemoExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		ok   int
	}{
		{[]string{"-duration", "1s", "-n", "2"}, 0, 2},
		{[]string{"-duration", "1s", "-n", "5"}, 1, 4},
		{[]string{"-duration", "0s"}, 2, 0},
		{[]string{"-log", "loud"}, 2, 0},
	}
	for _, tc := range tests {
		var out, errw bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errw)
		if code != tc.code {
			t.Errorf("demo %v exited %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, tc.code, out.String(), errw.String())
			continue
		}
		ok := 0
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, "bot-") && strings.HasSuffix(strings.TrimSpace(line), " ok") {
				ok++
			}
		}
		if ok != tc.ok {
			t.Errorf("demo %v: %d bots ok in the table, want %d:\n%s", tc.args, ok, tc.ok, out.String())
		}
		if tc.code == 1 && !strings.Contains(out.String(), "no-connect") {
			t.Errorf("demo %v: the rejected bot is not reported:\n%s", tc.args, out.String())
		}
	}
}
