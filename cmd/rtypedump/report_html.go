package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

//go:embed report.tmpl
var reportFS embed.FS

var reportTmpl = template.Must(template.New("report.tmpl").ParseFS(reportFS, "report.tmpl"))

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 800, 130
	padL, padB     = 56, 18
)

type line struct {
	Name, Class string
	Path        string // SVG path data: a gap where a bin has no sample
}

type chart struct {
	Title, Unit string
	Top         string // the y axis's top value
	Lines       []line
	Key         string // the series' name in the page's data, for hover
}

type summaryRow struct {
	Client                     string
	Span                       string
	DgUp, DgDown               int
	KiBUp, KiBDown             string
	LossUp, LossDown           string
	RTT50, RTT99, RTTMax       string
	Snap50, Snap99, SnapJitter string
	Entities, Drops, Resends   int
}

type clientView struct {
	ID     string
	Row    summaryRow
	Charts []chart
	Track  *trackChart // nil when no entity was seen moving
	Drops  []dropCount
}

type dropCount struct {
	Key string
	N   int
}

type reportView struct {
	Source, Start, Span string
	Rows                []summaryRow
	Clients             []clientView
	Skipped             int
	Ticks               []tick
	Data                template.JS // per client, per series, per bin: for the hover readout
	Width, Height       int
	PadL                int
	Positions           bool // the input holds entities' positions: a capture
}

type tick struct {
	X     float64
	Label string
}

// writeReport writes m as one self-contained HTML page.
func writeReport(w io.Writer, m *reportModel) error {
	span := m.end.Sub(m.start)
	if span <= 0 {
		span = time.Second
	}
	v := reportView{Source: m.source, Start: m.start.UTC().Format(time.RFC3339), Span: span.Round(time.Millisecond).String(),
		Skipped: m.skipped, Positions: !m.traces, Width: chartW, Height: chartH, PadL: padL, Ticks: ticks(span)}
	data := map[string]map[string][]float64{}
	for i, c := range m.clients {
		cv := viewOf(c, i, span, data)
		cv.Track = trackChartOf(&c.track, m.end)
		v.Rows = append(v.Rows, cv.Row)
		v.Clients = append(v.Clients, cv)
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	v.Data = template.JS(b)
	return reportTmpl.Execute(w, v)
}

// series are a client's per-bin values, by name.
func seriesOf(c *clientSeries) map[string][]float64 {
	s := map[string][]float64{}
	sec := c.width.Seconds()
	for _, b := range c.bins {
		add := func(k string, v float64) { s[k] = append(s[k], v) }
		add("rtt", orNone(b.rttSum, b.rttN))
		add("rttMax", orNone(b.rttMax, b.rttN))
		for d, name := range []string{"Up", "Down"} {
			add("loss"+name, b.lossPct(d))
			add("dg"+name, float64(b.dg[d])/sec)
			add("bytes"+name, float64(b.bytes[d])/sec)
		}
		mean := ratio(b.snapSum, float64(b.snapN))
		add("snap", orNone(mean, b.snapN))
		add("jitter", orNone(math.Sqrt(max(0, ratio(b.snapSq, float64(b.snapN))-mean*mean)), b.snapN))
		add("entities", float64(b.entities))
	}
	return s
}

// none marks a bin without a sample: no point is drawn, and the readout
// says "-".
const none = -1

// orNone returns v, or none when n samples are 0.
func orNone(v float64, n int) float64 {
	if n == 0 {
		return none
	}
	return v
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func viewOf(c *clientSeries, i int, span time.Duration, data map[string]map[string][]float64) clientView {
	s := seriesOf(c)
	id := fmt.Sprintf("c%d", i)
	data[id] = s
	mk := func(title, unit, key string, names ...string) chart {
		top := 0.0
		for _, n := range names {
			for _, v := range s[n] {
				top = max(top, v)
			}
		}
		top = niceTop(top)
		ch := chart{Title: title, Unit: unit, Top: trim(top), Key: key}
		for j, n := range names {
			ch.Lines = append(ch.Lines, line{Name: n, Class: fmt.Sprintf("l%d", j), Path: path(s[n], c.width, span, top)})
		}
		return ch
	}
	cv := clientView{ID: id, Row: row(c, span), Charts: []chart{
		mk("Round trip", "ms", "rtt", "rtt", "rttMax"),
		mk("Loss each way (§5.1, §5.2)", "%", "loss", "lossUp", "lossDown"),
		mk("Datagrams per second", "/s", "dg", "dgUp", "dgDown"),
		mk("Bytes per second", "B/s", "bytes", "bytesUp", "bytesDown"),
		mk("Snapshot interval (§10: 50 ms) and its jitter", "ms", "snap", "snap", "jitter"),
		mk("Entities held", "", "entities", "entities"),
	}}
	for k, n := range c.drops {
		cv.Drops = append(cv.Drops, dropCount{k, n})
	}
	sort.Slice(cv.Drops, func(a, b int) bool { return cv.Drops[a].N > cv.Drops[b].N })
	return cv
}

func row(c *clientSeries, span time.Duration) summaryRow {
	r := summaryRow{Client: c.client, Resends: c.resends}
	var bytes [2]int
	for _, b := range c.bins {
		for d := range 2 {
			bytes[d] += b.bytes[d]
		}
		r.DgUp += b.dg[0]
		r.DgDown += b.dg[1]
		r.Entities = b.entities
	}
	for _, n := range c.drops {
		r.Drops += n
	}
	r.Span = (time.Duration(len(c.bins)) * c.width).String()
	r.KiBUp, r.KiBDown = trim(float64(bytes[0])/1024), trim(float64(bytes[1])/1024)
	var total bin
	for _, b := range c.bins {
		for d := range 2 {
			total.got[d] += b.got[d]
			total.missing[d] += b.missing[d]
		}
	}
	pct := func(d int) string {
		total.covered[d], total.lost[d] = c.dirs[d].covered, c.dirs[d].lost
		return trim(total.lossPct(d)) + "%"
	}
	r.LossUp, r.LossDown = pct(0), pct(1)
	slices.Sort(c.rtts) // the samples are read no more
	slices.Sort(c.snaps)
	r.RTT50, r.RTT99, r.RTTMax = ms(percentile(c.rtts, 0.5)), ms(percentile(c.rtts, 0.99)), ms(percentile(c.rtts, 1))
	r.Snap50, r.Snap99 = ms(percentile(c.snaps, 0.5)), ms(percentile(c.snaps, 0.99))
	var sum, sq float64
	for _, v := range c.snaps {
		sum, sq = sum+v, sq+v*v
	}
	mean := ratio(sum, float64(len(c.snaps)))
	r.SnapJitter = ms(math.Sqrt(max(0, ratio(sq, float64(len(c.snaps)))-mean*mean)))
	return r
}

func ms(v float64) string { return trim(v) }

// trim formats v with at most one decimal, none when whole.
func trim(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0")
}

// niceTop rounds v up to 1, 2 or 5 times a power of ten, 1 at least.
func niceTop(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

// path is the SVG path of values, one per bin of width, on the shared
// time axis of span, scaled to top; a bin without a sample (none) breaks
// the line.
func path(values []float64, width, span time.Duration, top float64) string {
	var b strings.Builder
	plotW := float64(chartW - padL)
	plotH := float64(chartH - padB)
	op := "M"
	for i, v := range values {
		if v < 0 {
			op = "M"
			continue
		}
		t := (float64(i) + 0.5) * width.Seconds()
		x := float64(padL) + plotW*t/span.Seconds()
		y := plotH - plotH*min(v, top)/top
		fmt.Fprintf(&b, "%s%.1f,%.1f ", op, x, y)
		op = "L"
	}
	return strings.TrimSpace(b.String())
}

// ticks are the time axis's labels: about 8, at round seconds.
func ticks(span time.Duration) []tick {
	step := niceTop(span.Seconds() / 8)
	var t []tick
	for s := 0.0; s <= span.Seconds(); s += step {
		t = append(t, tick{X: float64(padL) + float64(chartW-padL)*s/span.Seconds(), Label: trim(s) + " s"})
	}
	return t
}
