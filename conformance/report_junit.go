package conformance

import (
	"encoding/xml"
	"io"
	"strconv"
	"time"
)

// The JUnit XML elements written, in the form CI systems (Jenkins, GitLab,
// GitHub test reporters) read.
type (
	junitSuites struct {
		XMLName  xml.Name   `xml:"testsuites"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr,omitempty"`
		Skipped  int        `xml:"skipped,attr"`
		Time     string     `xml:"time,attr"`
		Suite    junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Classname string        `xml:"classname,attr"`
		Name      string        `xml:"name,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitFailure `xml:"failure"`
		Error     *junitFailure `xml:"error"`
		Skipped   *junitSkipped `xml:"skipped"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
)

// WriteJUnit writes the report as JUnit XML: one testsuite, named
// "rtypecheck server" or "rtypecheck client" with the target as a
// property, and one testcase per case, whose classname is the case's
// section and whose name is its id, level and title ("5.2/3 [MUST] ...").
// A failed case has a <failure> whose message is the detail and whose type
// is the level, whatever the level: the file says what the implementation
// does, and the exit status of rtypecheck, which counts SHOULD and GAME
// only with -strict and BEYOND never, says whether that fails the run. A
// case not run has a <skipped> with the reason. The ladder's rungs and
// why a run stopped early are properties. A run that did not start
// (Report.Error) is one testcase, of classname rtypecheck and named by the
// suite and the target, with an <error> whose message is the reason.
func (r *Report) WriteJUnit(w io.Writer) error {
	pass, fail, skip := r.Summary()
	suite := junitSuite{
		Name:  "rtypecheck " + string(r.Mode),
		Tests: pass + fail + skip, Failures: fail, Skipped: skip,
		Properties: []junitProperty{{"mode", string(r.Mode)}, {"target", r.Target}},
	}
	for _, g := range r.Ladder {
		suite.Properties = append(suite.Properties, junitProperty{"ladder " + g.Name, g.State.String()})
	}
	if r.Stopped != "" {
		suite.Properties = append(suite.Properties, junitProperty{"stopped", r.Stopped})
	}
	var total time.Duration
	for _, res := range r.Results {
		total += res.Duration
		suite.Cases = append(suite.Cases, junitTestcase(res))
	}
	if r.Error != "" {
		suite.Tests++
		suite.Errors++
		suite.Cases = append(suite.Cases, junitCase{
			Classname: "rtypecheck", Name: suite.Name + " " + r.Target, Time: seconds(0),
			Error: &junitFailure{Message: r.Error, Type: "error", Text: r.Error},
		})
	}
	suite.Time = seconds(total)
	out := junitSuites{Name: suite.Name, Tests: suite.Tests, Failures: fail, Errors: suite.Errors, Skipped: skip, Time: suite.Time, Suite: suite}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func junitTestcase(res Result) junitCase {
	c := res.Case
	tc := junitCase{
		Classname: c.Section(),
		Name:      c.ID + " [" + c.Level.String() + "] " + c.Title,
		Time:      seconds(res.Duration),
	}
	switch res.Outcome {
	case Fail:
		tc.Failure = &junitFailure{Message: res.Detail, Type: c.Level.String(), Text: res.Detail}
	case Pass:
	default: // as Summary counts it
		tc.Skipped = &junitSkipped{Message: res.Detail}
	}
	return tc
}

// seconds formats d as JUnit's time attribute: seconds, to the millisecond.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
