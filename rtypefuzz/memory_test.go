package rtypefuzz_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypefuzz/internal/planted"
	"github.com/rtypeproto/rtype/rtypetest"
)

// RSS reads a process's resident memory: this test's own, a few MiB.
func TestRSS(t *testing.T) {
	rss, err := rtypefuzz.RSS(os.Getpid())
	if runtime.GOOS != "linux" {
		if !errors.Is(err, rtypefuzz.ErrRSS) {
			t.Errorf("RSS on %s: %v, want ErrRSS", runtime.GOOS, err)
		}
		return
	}
	if err != nil || rss < 1<<20 || rss > 1<<34 {
		t.Errorf("RSS %d, %v", rss, err)
	}
	if _, err := rtypefuzz.RSS(-1); !errors.Is(err, rtypefuzz.ErrRSS) {
		t.Errorf("RSS of no process: %v", err)
	}
}

// §12: memory that grows past the bound while the connections are few is
// a finding; memory within it is none.
func TestMemoryBound(t *testing.T) {
	for _, tt := range []struct {
		name  string
		grows uint64 // bytes per read
		want  rtypefuzz.Oracle
	}{
		{"steady", 0, 0},
		{"growing", 64 << 20, rtypefuzz.MemoryGrew},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				nw := rtypetest.NewNetwork(1)
				rss := uint64(100 << 20)
				read := func() (uint64, error) { rss += tt.grows; return rss, nil }
				o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: 1, Duration: 10 * time.Second,
					RSS: read, MaxRSS: 512 << 20}
				rep, err := rtypefuzz.FuzzServerStart(context.Background(), startPlanted(nw, planted.None), o)
				if err != nil {
					t.Fatal(err)
				}
				got := rtypefuzz.Oracle(0)
				if rep.Finding != nil {
					got = rep.Finding.Oracle
					t.Log(rep.Finding.Detail)
				}
				if got != tt.want {
					t.Errorf("oracle %v, want %v", got, tt.want)
				}
			})
		})
	}
}
