// Package prom exports a [host.Host]'s metrics to Prometheus: a
// [prometheus.Collector] that reads the host's counters when scraped, so
// that the tick loops never touch the Prometheus library and allocate
// nothing for it. Every metric aggregates all matches; labels are few and
// fixed (a direction, a drop rule), never one per match or connection.
//
//	rtype_matches, rtype_players, rtype_waiting           gauges
//	rtype_datagrams_total{direction="in"|"out"}           counter
//	rtype_bytes_total{direction="in"|"out"}               counter
//	rtype_drops_total{reason}                             counter, §12
//	rtype_resends_total                                   counter, §13.4
//	rtype_match_failures_total                            counter
//	rtype_rtt_seconds                                     histogram, §5.1
//	rtype_tick_duration_seconds                           histogram
//	rtype_game_tick_duration_seconds                      histogram
//	rtype_snapshot_bytes                                  histogram, §8.1
//
// The reasons are [session.DropReason.Key]'s stable names.
package prom

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/session"
)

// Collector collects one host's metrics.
type Collector struct {
	h *host.Host

	matches, players, waiting         *prometheus.Desc
	datagrams, bytes, drops, resends  *prometheus.Desc
	failures, rtt, tick, snapshotSize *prometheus.Desc
	gameTick                          *prometheus.Desc

	// mu guards m, read anew at each scrape.
	mu sync.Mutex
	m  host.Metrics
}

// NewCollector returns a Collector of h, to register with a
// [prometheus.Registry].
func NewCollector(h *host.Host) *Collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("rtype_"+name, help, labels, nil)
	}
	return &Collector{
		h:            h,
		matches:      d("matches", "Matches running."),
		players:      d("players", "Players in a slot, over every match (§10)."),
		waiting:      d("waiting", "Validated clients queued for a slot, over every match (§10)."),
		datagrams:    d("datagrams_total", "Datagrams received (in) and sent (out) by the matches.", "direction"),
		bytes:        d("bytes_total", "Bytes of the datagrams received (in) and sent (out).", "direction"),
		drops:        d("drops_total", "Datagrams and messages dropped, by rule (§12).", "reason"),
		resends:      d("resends_total", "CreateEntity and DestroyEntity copies sent again (§13.4)."),
		failures:     d("match_failures_total", "Matches closed by a panic of their game or a failed socket."),
		rtt:          d("rtt_seconds", "Round-trip samples the servers take from acks (§5.1)."),
		tick:         d("tick_duration_seconds", "One match's tick: its datagrams in, the game, the session tick, its datagrams out."),
		snapshotSize: d("snapshot_bytes", "Size of each datagram sent with a Snapshot (§8.1)."),
		gameTick:     d("game_tick_duration_seconds", "The part of one match's tick that is its game's own."),
	}
}

// Describe sends the descriptions of every metric.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.matches, c.players, c.waiting, c.datagrams, c.bytes,
		c.drops, c.resends, c.failures, c.rtt, c.tick, c.snapshotSize, c.gameTick} {
		ch <- d
	}
}

// Collect reads the host's metrics and sends them.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := &c.m
	c.h.ReadMetrics(m)
	gauge := func(d *prometheus.Desc, v int) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v))
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	gauge(c.matches, m.Matches)
	gauge(c.players, m.Players)
	gauge(c.waiting, m.Waiting)
	counter(c.datagrams, m.DatagramsIn, "in")
	counter(c.datagrams, m.DatagramsOut, "out")
	counter(c.bytes, m.BytesIn, "in")
	counter(c.bytes, m.BytesOut, "out")
	for r, n := range m.Drops.All() {
		counter(c.drops, n, r.Key())
	}
	counter(c.resends, m.Resends)
	counter(c.failures, m.Failed)
	ch <- histogram(c.rtt, &m.RTT)
	ch <- histogram(c.tick, &m.Tick)
	ch <- histogram(c.gameTick, &m.Game)
	ch <- histogram(c.snapshotSize, &m.Snapshot)
}

// histogram turns the host's per-bucket counts into Prometheus's
// cumulative ones; the last bucket is +Inf, which Prometheus adds itself.
func histogram(d *prometheus.Desc, h *session.Histogram) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.Bounds))
	var sum uint64
	for i, b := range h.Bounds {
		sum += h.Counts[i]
		buckets[b] = sum
	}
	return prometheus.MustNewConstHistogram(d, h.Count, h.Sum, buckets)
}

// Handler serves h's metrics, with the Go runtime's and the process's, in
// Prometheus's exposition format: the MetricsHandler of
// [github.com/rtypeproto/rtype/host/hostcmd.Options].
func Handler(h *host.Host) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(NewCollector(h), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewGoCollector())
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}
