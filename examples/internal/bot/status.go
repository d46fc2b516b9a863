package bot

import (
	"errors"
	"io"
	"strings"

	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/session"
)

// StatusOK is the status of a bot that got what it came for: it was given
// the world and kept its session to the end. Every other status is a
// failure.
const StatusOK = "ok"

// Status says how the session went, in one word:
//
//   - "ok": the bot got the world (§10) and kept its session until it
//     stopped;
//   - "rejected": the server answered Rejected (§4.4);
//   - "no-connect": no Welcome came (§4.2, §4.3);
//   - "waiting": welcomed, but the server never sent the world, as one
//     with every player slot taken does;
//   - "lost": the bot saw its session end other than by its Disconnect;
//   - "closed-" and the server's close reason: the server closed the
//     session for any reason but the bot's Disconnect (§7.3) or the
//     server's own stop, even if the bot did not notice.
func (r *Result) Status() string {
	switch {
	case r.Rejected:
		return "rejected"
	case !r.Connected:
		return "no-connect"
	case !r.Playing:
		return "waiting"
	case r.Lost:
		return "lost"
	}
	switch r.ServerClose {
	case session.CloseNone, session.CloseDisconnect, session.CloseShutdown:
		return StatusOK
	}
	return "closed-" + strings.ToLower(r.ServerClose.String())
}

// OK reports whether the bot got what it came for.
func (r *Result) OK() bool { return r.Status() == StatusOK }

// Why explains the status in a few words, for the reader of a failure.
func (r *Result) Why() string {
	switch st := r.Status(); {
	case st == StatusOK:
		return "played to the end"
	case st == "rejected":
		return "the server answered Rejected (§4.4): no room for another player"
	case st == "no-connect":
		why := withErr("no Welcome from "+r.serverName()+" (§4.3)", r.Err)
		if errors.Is(r.Err, session.ErrTimedOut) {
			why += "; is a server running there?"
		}
		return why
	case st == "waiting":
		return withErr("welcomed, but the server sent no world (every player slot taken)", r.Err)
	case st == "lost":
		return withErr("the session ended before the bot's Disconnect", r.Err)
	default:
		return "the server closed the session: " + r.ServerClose.String()
	}
}

// serverName is the server's address, or "the server" when the result
// does not say.
func (r *Result) serverName() string {
	if !r.Server.IsValid() {
		return "the server"
	}
	return r.Server.String()
}

// withErr adds what the client said, when it said something.
func withErr(s string, err error) string {
	if err == nil {
		return s
	}
	return s + ": " + err.Error()
}

// Progress names where a running bot is: "connecting", "waiting" or
// "playing", or its status once its client stopped by itself.
func (r *Result) Progress() string {
	if r.Err != nil {
		return r.Status()
	}
	switch r.State {
	case session.Waiting:
		return "waiting"
	case session.Playing:
		return "playing"
	}
	return "connecting"
}

// WriteFailures prints, for every bot that is not ok, its status and why,
// and returns how many such bots there were. Bots that failed alike share
// one line, which names them all: eight bots against an address where no
// server listens print one line, not eight. A line wider than width
// (0 means [termwidth.Default]) goes on, indented, on the next.
func WriteFailures(w io.Writer, results []Result, width int) int {
	var order []string             // each distinct "status: why", in order
	names := map[string][]string{} // the bots that failed so
	n := 0
	for i := range results {
		r := &results[i]
		if r.OK() {
			continue
		}
		n++
		k := r.Status() + ": " + r.Why()
		if _, seen := names[k]; !seen {
			order = append(order, k)
		}
		names[k] = append(names[k], r.Name)
	}
	var b strings.Builder
	for _, k := range order {
		for _, line := range termwidth.Wrap(strings.Join(names[k], ", ")+": "+k, termwidth.Layout(width), "", "  ") {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	io.WriteString(w, b.String())
	return n
}
