package bot

import (
	"errors"
	"net/netip"
	"slices"
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
		{"no Welcome from an address", Result{Server: netip.MustParseAddrPort("127.0.0.1:4242"), Err: session.ErrTimedOut}, "no-connect",
			"no Welcome from 127.0.0.1:4242 (§4.3): " + session.ErrTimedOut.Error() + "; is a server running there?"},
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
// and counts them; bots that failed alike share a line, and a line too
// wide goes on, indented, under itself.
func TestWriteFailures(t *testing.T) {
	gone := netip.MustParseAddrPort("127.0.0.1:4242")
	rs := []Result{
		{Name: "bot-1", Connected: true, Playing: true},
		{Name: "bot-2", Connected: true},
		{Name: "bot-3", Rejected: true, Err: session.ErrRejected},
		{Name: "bot-4", Connected: true},
		{Name: "bot-5", Server: gone, Err: session.ErrTimedOut},
		{Name: "bot-6", Server: gone, Err: session.ErrTimedOut},
	}
	var sb strings.Builder
	if n := WriteFailures(&sb, rs, 200); n != 5 {
		t.Errorf("%d failures, want 5", n)
	}
	want := "bot-2, bot-4: waiting: welcomed, but the server sent no world (every player slot taken)\n" +
		"bot-3: rejected: the server answered Rejected (§4.4): no room for another player\n" +
		"bot-5, bot-6: no-connect: no Welcome from 127.0.0.1:4242 (§4.3): session: timed out; is a server running there?\n"
	if sb.String() != want {
		t.Errorf("got\n%s\nwant\n%s", sb.String(), want)
	}
	sb.Reset()
	WriteFailures(&sb, rs, 0)
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	for _, line := range lines {
		if n := textWidth(line); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "  ") || !strings.HasPrefix(lines[4], "  ") {
		t.Errorf("at 80 columns, want the first and last failure on two lines, the second indented:\n%s", sb.String())
	}
	if got := strings.Join(strings.Fields(sb.String()), " "); got != strings.Join(strings.Fields(want), " ") {
		t.Errorf("wrapped, the words differ:\n%s", sb.String())
	}
}

// Wrapped lines hold at most the width, a word longer than a line cut;
// every line after the first is indented.
func TestWrap(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  []string
	}{
		{"", 10, []string{""}},
		{"one two three", 13, []string{"one two three"}},
		{"one two three", 12, []string{"one two", "  three"}},
		{"µµµµ §§§", 8, []string{"µµµµ §§§"}},
		{"a verylongword b", 6, []string{"a", "  very", "  long", "  word", "  b"}},
	}
	for _, tc := range tests {
		if got := wrap(tc.s, tc.width, "  "); !slices.Equal(got, tc.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
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
	c = SessionConfig(session.ClientConfig{ExpireUnlisted: session.Off, QueryRetry: 3 * session.DefaultQueryRetry})
	if c.ExpireUnlisted != -1 || c.QueryRetry != 3*session.DefaultQueryRetry {
		t.Errorf("caller's values replaced: ExpireUnlisted %v, QueryRetry %v", c.ExpireUnlisted, c.QueryRetry)
	}
}
