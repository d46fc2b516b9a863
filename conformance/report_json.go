package conformance

import (
	"encoding/json"
	"io"
)

// jsonReport is the -json report; its field names are fixed, scripts
// read them.
type jsonReport struct {
	Mode   Mode   `json:"mode"`
	Target string `json:"target"`
	// Error is set, and cases empty, for a run that did not start.
	Error string `json:"error,omitempty"`
	// Ladder is server mode's, nil in client mode.
	Ladder  []jsonRung  `json:"ladder,omitempty"`
	Cases   []jsonCase  `json:"cases"`
	Stopped string      `json:"stopped,omitempty"`
	Summary jsonSummary `json:"summary"`
}

type jsonRung struct {
	Name    string    `json:"name"`
	Section string    `json:"section"`
	Case    string    `json:"case"`
	State   RungState `json:"state"`
	Detail  string    `json:"detail,omitempty"`
	Next    string    `json:"next"`
	NotRun  int       `json:"not_run"`
}

type jsonCase struct {
	ID      string  `json:"id"`
	Section string  `json:"section"`
	Level   Level   `json:"level"`
	Title   string  `json:"title"`
	Result  Outcome `json:"result"`
	// Detail is "" for a passed case, but one run again alone, and
	// always present, so that every case object has the same keys.
	Detail string `json:"detail"`
	MS     int64  `json:"ms"`
}

type jsonSummary struct {
	Pass   int `json:"pass"`
	Fail   int `json:"fail"`
	NotRun int `json:"not_run"`
}

// WriteJSON writes the report as one JSON object and a newline:
//
//	{"mode":"server","target":"127.0.0.1:4242",
//	 "ladder":[{"name":"handshake","section":"4.3","case":"4.2/1",
//	            "state":"held","next":"...","not_run":0}, ...],
//	 "cases":[{"id":"5.2/3","section":"5.2","level":"MUST","title":"...",
//	           "result":"fail","detail":"...","ms":12}],
//	 "summary":{"pass":0,"fail":1,"not_run":0}}
//
// mode is server or client, ladder (server mode) the capabilities probed
// before the cases, each held, missing (with its "detail") or untried,
// level MUST, SHOULD, GAME or BEYOND, result pass, fail or not run, and ms
// the case's time in whole milliseconds. "stopped", after the cases, says
// why a run stopped early: the implementation stopped answering. A run
// that did not start (Report.Error) has "error", after "target", and no
// case.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Mode: r.Mode, Target: r.Target, Error: r.Error, Stopped: r.Stopped, Cases: make([]jsonCase, 0, len(r.Results))}
	for _, g := range r.Ladder {
		out.Ladder = append(out.Ladder, jsonRung(g))
	}
	for _, res := range r.Results {
		out.Cases = append(out.Cases, jsonCase{
			ID: res.Case.ID, Section: res.Case.Section(), Level: res.Case.Level, Title: res.Case.Title,
			Result: res.Outcome, Detail: res.Detail, MS: res.Duration.Milliseconds(),
		})
	}
	out.Summary.Pass, out.Summary.Fail, out.Summary.NotRun = r.Summary()
	enc := json.NewEncoder(w)
	// Details quote what was sent, such as "<" and "&"; left as they are
	// they read better.
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
