//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// clientPkg is the page's program: the session client compiled to
// WebAssembly.
const clientPkg = "github.com/rtypeproto/rtype/cmd/rtypeweb/client"

// ErrNoGo says the page's WebAssembly cannot be built here.
var ErrNoGo = errors.New("rtypeweb: cannot build the page's WebAssembly with the go command (give -wasm FILE)")

// buildClient compiles the page's program for js/wasm with the go
// command, from this source tree when the binary knows it (go run) or
// else from the working directory's module, and returns the binary and
// the wasm_exec.js of the same Go release, which must match it.
func buildClient(ctx context.Context) (wasm, glue []byte, err error) {
	dir, err := os.MkdirTemp("", "rtypeweb-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "client.wasm")
	cmd := goCommand(ctx, "build", "-trimpath", "-ldflags=-s -w", "-o", out, clientPkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("%w: %v\n%s", ErrNoGo, err, b)
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, err
	}
	glue, err = wasmExec(ctx)
	return wasm, glue, err
}

// wasmExec reads the go command's wasm_exec.js, the glue its js/wasm
// binaries need (lib/wasm since Go 1.24, misc/wasm before).
func wasmExec(ctx context.Context) ([]byte, error) {
	b, err := goCommand(ctx, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: go env GOROOT: %v", ErrNoGo, err)
	}
	root := strings.TrimSpace(string(b))
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if js, err := os.ReadFile(filepath.Join(root, p)); err == nil {
			return js, nil
		}
	}
	return nil, fmt.Errorf("%w: no wasm_exec.js under %s", ErrNoGo, root)
}

// goCommand runs the go command in this source's directory when it still
// exists (a go run or a build without -trimpath), else where it was started.
func goCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), "client")); err == nil {
			cmd.Dir = filepath.Dir(file)
		}
	}
	return cmd
}
