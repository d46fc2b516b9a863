//go:build !js

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// Bad flags exit 2 with a word on stderr, before listening.
func TestRun_Usage(t *testing.T) {
	for _, args := range [][]string{
		{"-rate", "0"},
		{"-max-sessions", "0"},
		{"-idle", "0s"},
		{"-cert", "c.pem"},
		{"-log", "loud"},
		{"-server", "nowhere:x"},
		{"extra"},
		{"-no-such-flag"},
	} {
		var stderr strings.Builder
		if code := run(context.Background(), args, io.Discard, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a reason", args, code, stderr.String())
		}
	}
}

// The command prints the page's URL, fitting 80 columns, and stops on
// interrupt with status 0.
func TestRun_PrintsURLAndStops(t *testing.T) {
	wasm := filepath.Join(t.TempDir(), "client.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out exampletest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-server", "127.0.0.1:4242", "-addr", "127.0.0.1:0", "-wasm", wasm, "-log", "error"}, &out, io.Discard)
	}()
	exampletest.WaitFor(t, "the URL", func() bool { return strings.Contains(out.String(), "\n") })
	line := strings.TrimSuffix(out.String(), "\n")
	if !regexp.MustCompile(`^rtypeweb: play at http://127\.0\.0\.1:\d+/ \(relaying to \[127\.0\.0\.1:4242\]\)$`).MatchString(line) {
		t.Errorf("printed %q", line)
	}
	exampletest.CheckWidth(t, "the URL line", out.String(), 80)
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after interrupt, want 0", code)
	}
}
