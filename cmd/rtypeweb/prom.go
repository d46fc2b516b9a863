//go:build !js

package main

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// collector exports the gateway's counters, read at each scrape, by the
// names and labels of the host's metrics (host/prom) under rtypeweb_.
//
//	rtypeweb_sessions                                  gauge
//	rtypeweb_sessions_total                            counter
//	rtypeweb_sessions_refused_total{reason}            counter, §12
//	rtypeweb_sessions_idle_total                       counter, §13.3
//	rtypeweb_datagrams_total{direction="in"|"out"}     counter
//	rtypeweb_bytes_total{direction="in"|"out"}         counter
//	rtypeweb_drops_total{reason}                       counter, §2.2, §3, §12
//
// in is from the browsers to the servers, out the other way.
type collector struct {
	c                          *counters
	open, total, refused, idle *prometheus.Desc
	datagrams, bytes, drops    *prometheus.Desc
}

func newCollector(c *counters) *collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("rtypeweb_"+name, help, labels, nil)
	}
	return &collector{
		c:         c,
		open:      d("sessions", "Browser sessions open."),
		total:     d("sessions_total", "Browser sessions opened."),
		refused:   d("sessions_refused_total", "Session requests refused, by reason (§12).", "reason"),
		idle:      d("sessions_idle_total", "Sessions closed after the browser's silence (§13.3)."),
		datagrams: d("datagrams_total", "Datagrams relayed from the browsers (in) and to them (out).", "direction"),
		bytes:     d("bytes_total", "Bytes of the datagrams relayed, by direction.", "direction"),
		drops:     d("drops_total", "Datagrams not relayed, by reason (§2.2, §3, §12).", "reason"),
	}
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.open, c.total, c.refused, c.idle, c.datagrams, c.bytes, c.drops} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	m := func(d *prometheus.Desc, t prometheus.ValueType, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, t, v, labels...)
	}
	m(c.open, prometheus.GaugeValue, float64(c.c.open.Load()))
	m(c.total, prometheus.CounterValue, float64(c.c.sessions.Load()))
	for i, k := range refusalKeys {
		m(c.refused, prometheus.CounterValue, float64(c.c.refused[i].Load()), k)
	}
	m(c.idle, prometheus.CounterValue, float64(c.c.idleClosed.Load()))
	m(c.datagrams, prometheus.CounterValue, float64(c.c.upDatagrams.Load()), "in")
	m(c.datagrams, prometheus.CounterValue, float64(c.c.downDatagrams.Load()), "out")
	m(c.bytes, prometheus.CounterValue, float64(c.c.upBytes.Load()), "in")
	m(c.bytes, prometheus.CounterValue, float64(c.c.downBytes.Load()), "out")
	for i, k := range dropKeys {
		m(c.drops, prometheus.CounterValue, float64(c.c.drops[i].Load()), k)
	}
}

// serveMetrics serves the counters at http://addr/metrics, logged with
// the address it listens on (port 0 picks one).
func serveMetrics(addr string, c *counters, log *slog.Logger) (*http.Server, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(newCollector(c))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	go srv.Serve(ln)
	return srv, nil
}
