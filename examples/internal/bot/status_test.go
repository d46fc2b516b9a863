package bot

import (
	"errors"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/session"
)

// Only a bot that got the world (§10) and kept its session is ok; every
// other outcome names itself and says why.
func TestStatus(t *testing.T) {
	played := Result{Connected: true, Playing: true}
	with := func(r Result, f func(*Result)) Result { f(&r); return r }
	tests := []struct {
		name   string
		r      Result
		status string
		why    string
	}{
		{"played, bot's Disconnect", played, "ok", "played to the end"},
		{"played, server saw the Disconnect", with(played, func(r *Result) { r.ServerClose = session.CloseDisconnect }), "ok", "played"},
		{"played, server stopped", with(played, func(r *Result) { r.ServerClose = session.CloseShutdown }), "ok", "played"},
		{"rejected", Result{Rejected: true, Err: session.ErrRejected}, "rejected", "Rejected"},
		{"no Welcome", Result{Err: session.ErrTimedOut}, "no-connect", "no Welcome from the server (§4.3): " + session.ErrTimedOut.Error()},
		{"stopped before Welcome", Result{Err: errors.New("not connected")}, "no-connect", "not connected"},
		{"welcomed, no world", Result{Connected: true, State: session.Waiting}, "waiting", "welcomed, but the server sent no world (every player slot taken)"},
		{"welcomed, no world, then silence", Result{Connected: true, Lost: true, Err: session.ErrTimedOut},
			"waiting", "welcomed, but the server sent no world (every player slot taken): " + session.ErrTimedOut.Error()},
		{"welcomed, no world, server closed", Result{Connected: true, ServerClose: session.CloseTimeout}, "waiting", "no world"},
		{"played, then silence", with(played, func(r *Result) { r.Lost, r.Err = true, session.ErrTimedOut }), "lost", "ended before the bot's Disconnect"},
		{"played, kicked", with(played, func(r *Result) { r.ServerClose = session.CloseKicked }), "closed-kicked", "Kicked"},
		{"played, server timed it out", with(played, func(r *Result) { r.ServerClose = session.CloseTimeout }), "closed-timeout", "Timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Status(); got != tc.status {
				t.Errorf("Status() = %q, want %q", got, tc.status)
			}
			if got := tc.r.OK(); got != (tc.status == "ok") {
				t.Errorf("OK() = %v for status %q", got, tc.status)
			}
			if got := tc.r.Why(); !strings.Contains(got, tc.why) {
				t.Errorf("Why() = %q, want it to contain %q", got, tc.why)
			}
		})
	}
}

// The progress line says where a running bot is, and its status once its
// client stopped by itself.
func TestProgress(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{State: session.Connecting}, "connecting"},
		{Result{Connected: true, State: session.Waiting}, "waiting"},
		{Result{Connected: true, Playing: true, State: session.Playing}, "playing"},
		{Result{Rejected: true, State: session.Closed, Err: session.ErrRejected}, "rejected"},
		{Result{State: session.Closed, Err: session.ErrTimedOut}, "no-connect"},
		{Result{Connected: true, Playing: true, Lost: true, State: session.Closed, Err: session.ErrTimedOut}, "lost"},
	}
	for _, tc := range tests {
		if got := tc.r.Progress(); got != tc.want {
			t.Errorf("%+v: Progress() = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// WriteFailures names every bot that is not ok, with its status and why,
// and counts them.
func TestWriteFailures(t *testing.T) {
	rs := []Result{
		{Name: "bot-1", Connected: true, Playing: true},
		{Name: "bot-2", Connected: true},
		{Name: "bot-3", Rejected: true, Err: session.ErrRejected},
	}
	var sb strings.Builder
	if n := WriteFailures(&sb, rs); n != 2 {
		t.Errorf("%d failures, want 2", n)
	}
	want := "bot-2: waiting: welcomed, but the server sent no world (every player slot taken)\n" +
		"bot-3: rejected: the server answered Rejected (§4.4): no room for another player\n"
	if sb.String() != want {
		t.Errorf("got\n%s\nwant\n%s", sb.String(), want)
	}
}

// A bot fills in ExpireUnlisted, leaves QueryRetry off (§7.4: one
// QueryEntity per id), and keeps what its caller set, negative (switched
// off) included.
func TestSessionConfig(t *testing.T) {
	c := SessionConfig(session.ClientConfig{})
	if c.ExpireUnlisted != ExpireUnlisted || c.QueryRetry != 0 {
		t.Errorf("defaults: ExpireUnlisted %v, QueryRetry %v", c.ExpireUnlisted, c.QueryRetry)
	}
	c = SessionConfig(session.ClientConfig{ExpireUnlisted: -1, QueryRetry: 3 * session.DefaultQueryRetry})
	if c.ExpireUnlisted != -1 || c.QueryRetry != 3*session.DefaultQueryRetry {
		t.Errorf("caller's values replaced: ExpireUnlisted %v, QueryRetry %v", c.ExpireUnlisted, c.QueryRetry)
	}
}
