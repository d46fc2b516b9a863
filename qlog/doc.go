// Package qlog writes the events of a [session.Tracer] as qlog-style
// traces: one file per peer address, each a JSON-SEQ stream (RFC 7464) of
// the qlog main schema's sequential serialization, with the events of
// R-Type protocol v1 in the namespace "rtype" (docs/trace.md).
//
//	dir, err := qlog.NewDir("traces", qlog.Server)
//	cfg := session.ServerConfig{Tracer: dir}
//	defer dir.Close()
//
// A Dir is a session.Tracer: set it in a ClientConfig or ServerConfig.
// It is not safe for concurrent use, as the Client or Server that calls it.
package qlog
