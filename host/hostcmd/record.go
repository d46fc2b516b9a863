package hostcmd

import (
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"strconv"

	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/qlog"
)

// recorders are the trace directories and capture file a Serve opened.
type recorders struct {
	pcap   *pcap.Writer
	traces []*qlog.Dir
	err    error // of a trace directory New could not open
}

// recorders opens o's capture and wraps cfg.New to give each match its
// logger, trace directory and capture hooks. The capture's Writer is safe
// for concurrent use: the host's loops share it.
func (o *Options) recorders(cfg *host.Config) (*recorders, error) {
	r := &recorders{}
	if o.Pcap != "" {
		w, err := pcap.Create(o.Pcap)
		if err != nil {
			return nil, fmt.Errorf("-pcap: %w", err)
		}
		r.pcap = w
	}
	several, newMatch := cfg.Matches > 1, cfg.New
	if newMatch == nil {
		return r, nil // host.Listen says what is missing
	}
	cfg.New = func(i int, addr netip.AddrPort) host.Match {
		m := newMatch(i, addr)
		if m.Session.Log == nil {
			m.Session.Log = o.Logger(i)
		}
		if o.Trace != "" && m.Session.Tracer == nil {
			path := o.Trace
			if several {
				path = filepath.Join(path, strconv.Itoa(int(addr.Port())))
			}
			d, err := qlog.NewDir(path, qlog.Server)
			if err != nil {
				r.err = errors.Join(r.err, fmt.Errorf("-trace: %w", err))
				return m
			}
			r.traces = append(r.traces, d)
			m.Session.Tracer = d
		}
		if r.pcap != nil {
			m.Hooks = r.pcap.Hooks(addr, m.Hooks)
		}
		return m
	}
	return r, nil
}

func (r *recorders) close() error {
	var err error
	for _, d := range r.traces {
		err = errors.Join(err, d.Close())
	}
	if r.pcap != nil {
		err = errors.Join(err, r.pcap.Close())
	}
	return err
}
