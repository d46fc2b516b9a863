//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rtypeproto/rtype/cmd/rtypeweb/internal/play"
)

// clientBuild builds the page's program once for the package's browser
// tests, each of which starts it first, to build beside Chromium and the
// server starting.
var clientBuild = sync.OnceValues(func() (wasmAndGlue [2][]byte, err error) {
	wasm, glue, err := buildClient(context.Background())
	return [2][]byte{wasm, glue}, err
})

// testClient returns the page's program and its glue.
func testClient(t testing.TB) ([]byte, []byte) {
	t.Helper()
	b, err := clientBuild()
	if err != nil {
		t.Fatal(err)
	}
	return b[0], b[1]
}

// syncBuffer is a log both the gateway and the test touch.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startGateway starts a gateway in the test's process on a free loopback
// port, relaying to servers, with the flags' defaults changed by mod. Its
// page has a stand-in for the program: startPageGateway's plays.
func startGateway(t testing.TB, servers []netip.AddrPort, mod func(*options)) (*instance, *syncBuffer) {
	t.Helper()
	return startWith(t, servers, mod, []byte("\x00asm"), []byte("// glue"))
}

// startPageGateway is startGateway with the page's real program.
func startPageGateway(t testing.TB, servers []netip.AddrPort, mod func(*options)) (*instance, *syncBuffer) {
	t.Helper()
	wasm, glue := testClient(t)
	return startWith(t, servers, mod, wasm, glue)
}

func startWith(t testing.TB, servers []netip.AddrPort, mod func(*options), wasm, glue []byte) (*instance, *syncBuffer) {
	t.Helper()
	o := &options{addr: "127.0.0.1:0", limits: limits{sessions: 16, rate: 250, idle: 10 * time.Second}}
	if mod != nil {
		mod(o)
	}
	logs := &syncBuffer{}
	in, err := open(o, servers, slog.New(slog.NewTextHandler(logs, nil)), wasm, glue)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.close()
		if t.Failed() {
			t.Logf("the gateway's log:\n%s", logs.String())
		}
	})
	return in, logs
}

// needChromium skips the test where Chromium is not installed, but fails
// it under CI, which installs it (.ci/run).
func needChromium(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, and CI plays the page in it: .ci/run installs it")
		}
		t.Skip("chromium is not installed: the page's tests need it")
	}
}

// browser is one headless Chromium the test drives, and the errors its
// pages wrote to their consoles.
type chrome struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// newBrowser starts a headless Chromium, stopped when the test ends.
func newBrowser(t testing.TB) *chrome {
	t.Helper()
	needChromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.NoSandbox,
		chromedp.ExecPath("chromium"), chromedp.WindowSize(1280, 720))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if _, err := chromedp.Targets(ctx); err != nil {
		t.Fatal("starting chromium:", err)
	}
	return &chrome{ctx: ctx}
}

// tab opens url in a new tab of b and returns its context.
func (b *chrome) tab(t testing.TB, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == "error" || m.IsException() {
				b.addError(m.String())
			}
		}
	}()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal("opening the page:", err)
	}
	return ctx
}

func (b *chrome) addError(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = append(b.errors, s)
}

// consoleErrors returns what the pages wrote as errors so far.
func (b *chrome) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// stats reads the page's figures.
func stats(ctx context.Context) (play.Stats, error) {
	js, err := chromedp.Run(ctx, chromedp.Evaluate[string](`typeof rtypeStats === "function" ? rtypeStats() : "{}"`))
	var s play.Stats
	if err == nil {
		err = json.Unmarshal([]byte(js), &s)
	}
	return s, err
}

// waitStats polls the page's figures until ok holds, within limit.
func waitStats(t testing.TB, ctx context.Context, what string, limit time.Duration, ok func(play.Stats) bool) play.Stats {
	t.Helper()
	deadline := time.Now().Add(limit)
	var s play.Stats
	var err error
	for time.Now().Before(deadline) {
		if s, err = stats(ctx); err == nil && ok(s) {
			return s
		}
		time.Sleep(50 * time.Millisecond) // polling interval, not a wait
	}
	js, _ := json.Marshal(s)
	t.Fatalf("%s: not within %v; last figures %s (err %v)", what, limit, js, err)
	return s
}
