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
}

func (r *Report) add(res Result, o *Options) {
	r.Results = append(r.Results, res)
	if o.Progress != nil {
		o.Progress(res)
	}
}

// Summary counts the results by outcome.
func (r *Report) Summary() (pass, fail, skip int) {
	for _, res := range r.Results {
		switch res.Outcome {
		case Pass:
			pass++
		case Fail:
			fail++
		default:
			skip++
		}
	}
	return
}

// Failed reports whether the run failed: a MUST case failed, or with
// strict a SHOULD or GAME case too. BEYOND cases never fail a run.
func (r *Report) Failed(strict bool) bool {
	for _, res := range r.Results {
		if res.Outcome == Fail && res.Case.Level.Fails(strict) {
			return true
		}
	}
	return false
}
