package prom

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

func newHost(t *testing.T) *host.Host {
	h, err := host.Listen(host.Config{Addr: "127.0.0.1:0", Matches: 2, New: func(int, netip.AddrPort) host.Match { return host.Match{} }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// The exposition passes Prometheus's linter, the one promtool runs.
func TestLint(t *testing.T) {
	problems, err := testutil.CollectAndLint(NewCollector(newHost(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// Every metric of the fixed set is there, a drop series per rule.
func TestNames(t *testing.T) {
	c := NewCollector(newHost(t))
	want := map[string]int{
		"rtype_matches": 1, "rtype_players": 1, "rtype_waiting": 1,
		"rtype_datagrams_total": 2, "rtype_bytes_total": 2, "rtype_drops_total": numReasons(),
		"rtype_resends_total": 1, "rtype_match_failures_total": 1,
		"rtype_rtt_seconds": 1, "rtype_tick_duration_seconds": 1, "rtype_snapshot_bytes": 1,
		"rtype_game_tick_duration_seconds": 1,
	}
	for name, n := range want {
		if got := testutil.CollectAndCount(c, name); got != n {
			t.Errorf("%s: %d series, want %d", name, got, n)
		}
	}
	all := 0
	for _, n := range want {
		all += n
	}
	if got := testutil.CollectAndCount(c); got != all {
		t.Errorf("%d series in all, want %d", got, all)
	}
	exp := "# HELP rtype_matches Matches running.\n# TYPE rtype_matches gauge\nrtype_matches 2\n"
	if err := testutil.CollectAndCompare(c, strings.NewReader(exp), "rtype_matches"); err != nil {
		t.Error(err)
	}
}

// numReasons is the number of drop reasons, each a series of rtype_drops_total.
func numReasons() int {
	n := 0
	for range (session.Drops{}).All() {
		n++
	}
	return n
}
