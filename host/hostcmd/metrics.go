package hostcmd

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// serveMetrics serves handler at http://addr/metrics until stop.
func serveMetrics(addr string, handler http.Handler, log *slog.Logger) (stop func(), err error) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics", "err", err)
		}
	}()
	log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}
