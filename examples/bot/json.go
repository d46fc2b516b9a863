package main

import (
	"encoding/json"
	"io"
	"math"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/bot"
)

// jsonReport is what -json writes: the run's parameters and, per bot,
// the table's figures and what a smooth view of its world drew.
type jsonReport struct {
	Server     string    `json:"server"`
	Bots       int       `json:"bots"`
	DurationMs float64   `json:"durationMs"` // 0: until interrupted
	Loss       float64   `json:"loss"`
	Results    []jsonBot `json:"results"`
	OK         bool      `json:"ok"`
}

type jsonBot struct {
	Name         string     `json:"name"`
	Status       string     `json:"status"`
	Why          string     `json:"why"`
	ConnectionID uint32     `json:"connectionId"` // 0: no Welcome (§4.3)
	Snapshots    uint64     `json:"snapshots"`
	EntitiesSeen int        `json:"entitiesSeen"`
	Expired      int        `json:"expired"`
	Inputs       int        `json:"inputs"`
	Pongs        int        `json:"pongs"`
	RTTP50Ms     *float64   `json:"rttP50Ms"` // null without a Pong
	RTTP99Ms     *float64   `json:"rttP99Ms"`
	Loss         float64    `json:"loss"` // fraction of server packets
	HelloResends int        `json:"helloResends"`
	View         jsonSmooth `json:"view"`
}

// jsonSmooth is a bot's Result.Smooth: figures a game can read from its
// own session.View and act on.
type jsonSmooth struct {
	Frames            uint64  `json:"frames"`
	RenderDelayMeanMs float64 `json:"renderDelayMeanMs"`
	RenderDelayP99Ms  float64 `json:"renderDelayP99Ms"`
	InterpolatedPct   float64 `json:"interpolatedPct"`
	ExtrapolatedPct   float64 `json:"extrapolatedPct"`
	HeldPct           float64 `json:"heldPct"`
	Snaps             uint64  `json:"snaps"`
	SnapsPerMin       float64 `json:"snapsPerMin"`
	OwnCorrections    uint64  `json:"ownCorrections"`
	OwnSnaps          uint64  `json:"ownSnaps"`
	OwnCorrectionPx   float64 `json:"ownCorrectionMeanPx"`
}

// writeJSON writes the report of the bots' results as one JSON object.
func writeJSON(w io.Writer, server string, duration time.Duration, loss float64, results []bot.Result) error {
	rep := jsonReport{Server: server, Bots: len(results), DurationMs: ms(duration), Loss: loss, Results: []jsonBot{}, OK: true}
	for i := range results {
		r := &results[i]
		rep.OK = rep.OK && r.OK()
		rep.Results = append(rep.Results, jsonBot{
			Name: r.Name, Status: r.Status(), Why: r.Why(), ConnectionID: r.ConnectionID,
			Snapshots: r.Client.Snapshots, EntitiesSeen: r.EntitiesSeen, Expired: r.Expired,
			Inputs: r.Inputs, Pongs: len(r.RTT), RTTP50Ms: rttMs(r, 50), RTTP99Ms: rttMs(r, 99),
			Loss: r.Loss(), HelloResends: r.HelloResends, View: smoothJSON(&r.Smooth),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func smoothJSON(s *bot.Smooth) jsonSmooth {
	return jsonSmooth{
		Frames:            s.View.Frames,
		RenderDelayMeanMs: ms(s.DelayMean()),
		RenderDelayP99Ms:  ms(s.DelayPercentile(99)),
		InterpolatedPct:   pct(s.InterpolatedShare()),
		ExtrapolatedPct:   pct(s.ExtrapolatedShare()),
		HeldPct:           pct(s.HeldShare()),
		Snaps:             s.View.Snaps,
		SnapsPerMin:       round(s.SnapsPerMinute(), 100),
		OwnCorrections:    s.View.Corrections,
		OwnSnaps:          s.View.CorrectionSnaps,
		OwnCorrectionPx:   round(s.CorrectionMean(), 100),
	}
}

// rttMs is the p-th percentile of r's round trips in ms, nil without any.
func rttMs(r *bot.Result, p float64) *float64 {
	if len(r.RTT) == 0 {
		return nil
	}
	v := ms(r.RTTPercentile(p))
	return &v
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return round(float64(d)/float64(time.Millisecond), 1000) }

// pct is a fraction in percent, to a hundredth.
func pct(f float64) float64 { return round(100*f, 100) }

func round(v, by float64) float64 { return math.Round(v*by) / by }
