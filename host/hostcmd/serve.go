package hostcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/rtypeproto/rtype/host"
)

// ErrFlagField: the Config given to Serve sets Addr, Matches or Log,
// which are the flags' to set.
var ErrFlagField = errors.New("hostcmd: Config sets a field of the flags")

// Serve runs the host of cfg until ctx is done, with cfg's Addr, Matches
// and Log those of o (-addr, -matches, and a logger to stderr at -log),
// each match's trace and capture added, and the metrics served when
// -metrics names an address; it closes what it opened. A match's session
// server keeps the Log and Tracer its game sets: -log and -trace then do
// not apply to it. Its error is ErrFlagField, or host.Listen's, Run's or
// the recordings'.
func (o *Options) Serve(ctx context.Context, cfg host.Config) (err error) {
	if cfg.Addr != "" || cfg.Matches != 0 || cfg.Log != nil {
		return fmt.Errorf("%w: Addr %q, Matches %d, Log set: %t", ErrFlagField, cfg.Addr, cfg.Matches, cfg.Log != nil)
	}
	log := o.base()
	cfg.Addr, cfg.Matches, cfg.Log = o.Addr, o.Matches, log
	rec, err := o.recorders(&cfg)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, rec.close()) }()
	h, err := host.Listen(cfg)
	if err == nil {
		err = rec.err
	}
	if err != nil {
		if h != nil {
			h.Close()
		}
		return err
	}
	if o.Metrics != "" && o.MetricsHandler != nil {
		stop, err := serveMetrics(o.Metrics, o.MetricsHandler(h), log)
		if err != nil {
			h.Close()
			return fmt.Errorf("-metrics: %w", err)
		}
		defer stop()
	}
	err = h.Run(ctx)
	log.Info("stopped")
	return err
}
