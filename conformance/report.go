package conformance

// Report is the outcome of a run.
type Report struct {
	// Mode is the side that was tested.
	Mode Mode
	// Target is the server's address, or the client's command.
	Target string
	// Results holds one result per case run, in report order.
	Results []Result
	// Error, when not empty, says why the run did not start, such as an
	// implementation not reachable: no case ran. The JSON report writes
	// it as "error", the JUnit report as one testcase with an <error>, so
	// that a CI job reading either finds why; the text report is the
	// caller's to write.
	Error string
	// Ladder is, in server mode, what the probe before the cases found
	// of the capabilities they stand on, lowest first; nil in client
	// mode.
	Ladder []Rung
	// Stopped, when not empty, says why the run stopped before its last
	// case: the implementation stopped answering. The cases left are
	// reported not run.
	Stopped string
}

func (r *Report) add(res Result, o *Options) {
	r.Results = append(r.Results, res)
	if o.Progress != nil {
		o.Progress(res)
	}
}

// Summary counts the results by outcome.
func (r *Report) Summary() (pass, fail, notRun int) {
	for _, res := range r.Results {
		switch res.Outcome {
		case Pass:
			pass++
		case Fail:
			fail++
		default:
			notRun++
		}
	}
	return
}

// Status is what a run proved of the implementation.
type Status uint8

const (
	// Conformant: every case that counts (MUST; with strict SHOULD and
	// GAME too) ran and passed.
	Conformant Status = iota
	// NonConformant: a case that counts failed, or was not run because
	// the implementation lacks what it needs.
	NonConformant
	// Undecided: the implementation stopped answering during the run
	// (Report.Stopped), so the cases left could not judge it.
	Undecided
)

var statusNames = [...]string{"conformant", "non-conformant", "undecided"}

// String returns conformant, non-conformant or undecided.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Status returns what the run proved: Undecided when the implementation
// stopped answering, NonConformant when a case that counts failed or did
// not run, else Conformant. BEYOND cases never count, nor do vacuous ones
// (Result.Vacuous).
func (r *Report) Status(strict bool) Status {
	if r.Stopped != "" {
		return Undecided
	}
	if len(r.Counting(strict, Fail)) > 0 || len(r.Counting(strict, NotRun)) > 0 {
		return NonConformant
	}
	return Conformant
}

// Counting returns the ids of the cases that count for the run's status
// (MUST; with strict SHOULD and GAME too) and ended with o; a vacuous
// case (Result.Vacuous) never counts.
func (r *Report) Counting(strict bool, o Outcome) []string {
	var ids []string
	for _, res := range r.Results {
		if res.Outcome == o && !(o == NotRun && res.Vacuous) && res.Case.Level.Fails(strict) {
			ids = append(ids, res.Case.ID)
		}
	}
	return ids
}
