//go:build !go1.25

package main

import (
	"context"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/conformance"
)

// runStage runs the suite with o against a server of stage over real
// loopback UDP, stages 1 to 4 in process, the crash (stage 0) as the
// program. Go 1.25's testing/synctest runs stages 1 to 4 in memory.
func runStage(t *testing.T, stage int, o conformance.Options) *conformance.Report {
	t.Helper()
	var addr string
	if stage == 0 {
		addr = startCrashing(t).addr
	} else {
		_, a := start(t, config{stage: stage})
		addr = a.String()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := conformance.RunServer(ctx, addr, o)
	if err != nil {
		t.Fatalf("RunServer: %v", err)
	}
	return rep
}
