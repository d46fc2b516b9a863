package main

import (
	"encoding/json"
	"io"
)

// The -json report: the run's parameters, the numbers of each match and
// of all, durations in milliseconds, and what failed.
type jsonReport struct {
	Params    jsonParams  `json:"params"`
	ElapsedMs float64     `json:"elapsedMs"`
	Matches   []jsonMatch `json:"matches"`
	Overall   jsonTally   `json:"overall"`
	CPU       jsonCPU     `json:"cpu"`
	OK        bool        `json:"ok"`
	Failures  []string    `json:"failures"`
}

type jsonParams struct {
	Server           string  `json:"server"`
	Matches          int     `json:"matches"`
	BotsPerMatch     int     `json:"botsPerMatch"`
	DurationMs       float64 `json:"durationMs"` // 0: until interrupted
	Loss             float64 `json:"loss"`
	MaxSnapshotP99Ms float64 `json:"maxSnapshotP99Ms"`
	Loops            int     `json:"loops"`
}

type jsonMatch struct {
	Port   int    `json:"port"`
	Server string `json:"server"`
	jsonTally
	Failed []jsonBot `json:"failed"`
}

type jsonBot struct {
	Bot            int    `json:"bot"` // 1 to 4
	NeverGotAWorld bool   `json:"neverGotAWorld"`
	Why            string `json:"why"`
}

type jsonTally struct {
	Players            int      `json:"players"`
	PlayersOK          int      `json:"playersOk"`
	NeverGotAWorld     int      `json:"neverGotAWorld"`
	ConnectionLost     int      `json:"connectionLost"`
	SnapshotIntervalMs jsonDist `json:"snapshotIntervalMs"`
	RTTMs              jsonDist `json:"rttMs"`
	PacketsLost        uint64   `json:"packetsLost"`
	PacketsAccepted    uint64   `json:"packetsAccepted"`
	LossPercent        float64  `json:"lossPercent"`
	DatagramsInPerSec  float64  `json:"datagramsInPerSec"`
	DatagramsOutPerSec float64  `json:"datagramsOutPerSec"`
}

// jsonDist is a histogram's summary; without samples, null percentiles.
type jsonDist struct {
	Count uint64   `json:"count"`
	P50   *float64 `json:"p50"`
	P99   *float64 `json:"p99"`
	Max   *float64 `json:"max"`
}

type jsonCPU struct {
	UserMs  float64 `json:"userMs"`
	SysMs   float64 `json:"sysMs"`
	TotalMs float64 `json:"totalMs"`
	// PercentOfOneCore is TotalMs over the run's time.
	PercentOfOneCore float64 `json:"percentOfOneCore"`
	// BusiestLoopPercent is the share of the run the busiest loop spent
	// in frames: near 100, the generator did not keep up.
	BusiestLoopPercent float64 `json:"busiestLoopPercent"`
	// FramesPercent is the share of its frames, 60 a second, the slowest
	// loop ran; under 90, the run fails.
	FramesPercent float64 `json:"framesPercent"`
}

// writeJSON writes the report as one JSON object.
func writeJSON(w io.Writer, r *report) error {
	c := r.cfg
	out := jsonReport{
		Params: jsonParams{
			Server: c.server.String(), Matches: c.matches, BotsPerMatch: botsPerMatch,
			DurationMs: ms(c.duration), Loss: c.loss, MaxSnapshotP99Ms: ms(c.maxP99), Loops: r.loops,
		},
		ElapsedMs: ms(r.elapsed),
		Matches:   make([]jsonMatch, 0, len(r.matches)),
		Overall:   jsonOf(&r.all),
		CPU:       jsonCPUOf(r),
		OK:        r.passed(),
		Failures:  append([]string{}, r.problems...),
	}
	for i := range r.matches {
		mr := &r.matches[i]
		jm := jsonMatch{Port: int(mr.server.Port()), Server: mr.server.String(), jsonTally: jsonOf(&mr.tally), Failed: []jsonBot{}}
		for _, f := range mr.failed {
			jm.Failed = append(jm.Failed, jsonBot{Bot: f.bot, NeverGotAWorld: f.outcome == noWorld, Why: f.why})
		}
		out.Matches = append(out.Matches, jm)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func jsonOf(t *tally) jsonTally {
	return jsonTally{
		Players: t.players, PlayersOK: t.ok, NeverGotAWorld: t.noWorld, ConnectionLost: t.lost,
		SnapshotIntervalMs: distOf(t.snap), RTTMs: distOf(t.rtt),
		PacketsLost: t.packetsLost, PacketsAccepted: t.packetsAccepted, LossPercent: t.lossPercent(),
		DatagramsInPerSec: t.in, DatagramsOutPerSec: t.out,
	}
}

func distOf(h *histogram) jsonDist {
	d := jsonDist{Count: h.count()}
	if d.Count == 0 {
		return d
	}
	at := func(q float64) *float64 {
		v, _ := h.quantile(q)
		m := ms(v)
		return &m
	}
	d.P50, d.P99, d.Max = at(0.5), at(0.99), at(1)
	return d
}

func jsonCPUOf(r *report) jsonCPU {
	c := jsonCPU{UserMs: ms(r.user), SysMs: ms(r.sys), TotalMs: ms(r.user + r.sys), BusiestLoopPercent: 100 * r.busiest, FramesPercent: 100 * r.frames}
	if r.elapsed > 0 {
		c.PercentOfOneCore = 100 * (r.user + r.sys).Seconds() / r.elapsed.Seconds()
	}
	return c
}
