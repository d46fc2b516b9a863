package main

import (
	"bufio"
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/host"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// hostAddr is where the in-memory server of the virtual-time runs
// listens.
var hostAddr = netip.MustParseAddrPort("10.0.0.1:4242")

// startHost starts a session server on nw, afresh at each call, as a
// rtypefuzz.Start: stop returns once it has ended.
func startHost(nw *rtypetest.Network) rtypefuzz.Start {
	return func(ctx context.Context) (netip.AddrPort, <-chan error, func(), error) {
		conn, err := nw.Listen(hostAddr)
		if err != nil {
			return netip.AddrPort{}, nil, nil, err
		}
		h, err := host.Listen(host.Config{Conns: []session.PacketConn{conn}, ShutdownGrace: session.Off,
			New: func(int, netip.AddrPort) host.Match { return host.Match{} }})
		if err != nil {
			return netip.AddrPort{}, nil, nil, err
		}
		hctx, cancel := context.WithCancel(ctx)
		ended := make(chan error, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			if err := h.Run(hctx); err != nil && hctx.Err() == nil {
				ended <- err
			}
		}()
		return hostAddr, ended, func() { cancel(); <-done }, nil
	}
}

// fuzzTrace runs fuzz server with args and -trace, its flags read as the
// command line reads them, against a session server in memory, in
// virtual time; it returns the trace's lines, each cut to its number and
// mutation (the bytes hold what the run learnt from the server, its
// connection ids and acks), and what the run printed.
func fuzzTrace(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.tsv")
	args = append(append([]string{"server"}, args...), "-trace", path, "-out", t.TempDir(), "--", "unused")
	var stdout, stderr bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		cfg, err := parseFuzz(args, &stderr)
		if err != nil {
			t.Fatal(err)
		}
		nw := rtypetest.NewNetwork(1)
		o := rtypefuzz.Options{Seed: cfg.seed, Duration: cfg.duration, Rate: cfg.rate}
		code := fuzzRun(cfg, rtypefuzz.Server, o, func(o rtypefuzz.Options) (*rtypefuzz.Report, error) {
			o.Network = conformance.NetworkOf(nw.Listen)
			return rtypefuzz.FuzzServerStart(context.Background(), startHost(nw), o)
		}, &stdout, &stderr)
		if code != exitPass {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
		}
	})
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<16)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), "\t", 3)
		if len(fields) != 3 {
			t.Fatalf("trace line %q: want number, mutation, hex", sc.Text())
		}
		lines = append(lines, fields[0]+"\t"+fields[1])
	}
	return lines, stdout.String()
}

// -trace lists the datagrams a run sent, the edge pass first: two runs of
// -seed 1, at 2,000 and 700 datagrams a second, so that the server's
// answers come at other points of each, write the same mutation as each
// datagram both sent.
func TestFuzzTraceRepeats(t *testing.T) {
	t.Parallel() // in virtual time: CPU alone
	const least = 2000
	a, out := fuzzTrace(t, "-seed", "1", "-duration", "3s", "-rate", "2000")
	b, _ := fuzzTrace(t, "-seed", "1", "-duration", "3s", "-rate", "700")
	if len(a) < least || len(b) < least {
		t.Fatalf("%d and %d datagrams traced, want %d each at least", len(a), len(b), least)
	}
	t.Logf("%d and %d datagrams traced", len(a), len(b))
	if !strings.Contains(out, "no finding") {
		t.Errorf("printed %q, want no finding", out)
	}
	if !strings.HasPrefix(a[0], "1\tedge 1 of ") {
		t.Errorf("first datagram %q, want the edge pass's first", a[0])
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			t.Fatalf("datagram %d: %q at 2000/s, %q at 700/s", i+1, a[i], b[i])
		}
	}
}
