package readme

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// minBlocks is how many Go blocks each Markdown file that has any holds at
// least: a fence changed to one GoBlocks does not see (or a block removed)
// fails the test instead of leaving the code unchecked.
var minBlocks = map[string]int{
	// The decode and fast-path programs.
	"docs/codec.md": 2,
	// The minimal client and server, a host of 100 matches, and the
	// simulated minute of four clients at 20% loss.
	"docs/game.md": 4,
	// A client drawing the smooth view, and one in an engine's loop.
	"docs/client.md": 2,
	// A server with the host's operations and Prometheus metrics.
	"README.md": 1,
}

// runFor is how long a whole program may run before it counts as failed.
const runFor = 10 * time.Second

// Every Go code block of every Markdown file in the repository builds, and
// passes go vet, as pasted: a whole program as it is, a fragment as the
// body of a main function (see Block.Source). Every whole program is run,
// but for one marked long-running (Block.LongRunning), and must exit 0
// within runFor; one whose print calls carry the expected output in a
// trailing comment (see Block.Output) must print exactly that. A fragment
// is built and vetted only: it is part of a program, such as a client or
// server loop that runs until its context is cancelled.
func TestReadmeBlocks(t *testing.T) {
	root := repoRoot(t)
	var blocks []Block
	for _, file := range markdownFiles(t, root) {
		md, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		found := GoBlocks(file, md)
		want, listed := minBlocks[file]
		switch {
		case len(found) > 0 && !listed:
			t.Errorf("%s has %d Go blocks and no entry in minBlocks", file, len(found))
		case len(found) < want:
			t.Errorf("%s has %d Go blocks, want %d or more: is each still fenced as go?", file, len(found), want)
		}
		blocks = append(blocks, found...)
	}
	for file := range minBlocks {
		if countIn(blocks, file) == 0 && minBlocks[file] > 0 {
			t.Errorf("minBlocks lists %s, which has no Go block or is gone", file)
		}
	}
	mod := newModule(t, root)
	at := make([]Block, len(blocks))
	for i, b := range blocks {
		at[i] = b
		at[i].File = filepath.Join(root, filepath.FromSlash(b.File)) // for the compiler's positions
	}
	// All blocks vetted and built by one go command each, as one go vet
	// of a module does; when that fails, each block by itself, to say
	// which.
	batched := buildAll(t.Context(), mod, at) == nil
	checked := 0
	for i, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.File, b.Line), func(t *testing.T) {
			run := check
			if batched {
				run = runBlock
			}
			if err := run(t.Context(), mod, i, at[i], runFor); err != nil {
				t.Error(err)
			}
		})
		if b.Output() != nil {
			checked++
		}
	}
	// The two decoding programs of docs/codec.md state their output.
	if checked < 2 {
		t.Errorf("%d programs state their output in comments, want docs/codec.md's two decoding ones", checked)
	}
}

// The check fails on a block that does not build as pasted, that go vet
// rejects, or that prints other than its comments say.
func TestCheckCatchesBrokenBlocks(t *testing.T) {
	program := "package main\n\nimport \"fmt\"\n\nfunc main() {\n%s}\n"
	tests := []struct {
		name string
		code string
		want string
	}{
		{"undeclared", fmt.Sprintf(program, "\tfmt.Println(len(buf)) // 0\n"), "undefined: buf"},
		{"unused", "x := 1\nlog.Println(\"no x\")\n", "declared and not used"},
		{"vet", fmt.Sprintf(program, "\tfmt.Printf(\"%d\\n\", \"s\") // s\n"), "wrong type"},
		{"wrong output", fmt.Sprintf(program, "\tfmt.Println(6 * 7) // 42\n\tfmt.Println(\"b\") // a\n"), `want "a"`},
		{"missing output", fmt.Sprintf(program, "\tfmt.Println(1) // 1\n\tif false {\n\t\tfmt.Println(2) // 2\n\t}\n"), "printed 1 lines, want 2"},
		{"exit status without output comments", "package main\n\nimport \"os\"\n\nfunc main() { os.Exit(3) }\n", "exit status 3"},
		{"never ends", "package main\n\nimport \"time\"\n\nfunc main() { time.Sleep(time.Hour) }\n", "did not end within"},
	}
	mod := newModule(t, repoRoot(t))
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := check(t.Context(), mod, i, Block{File: "broken.md", Line: 10, Code: tc.code}, time.Second)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("check: %v; want an error containing %q", err, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), "broken.md:1") {
				t.Errorf("the error does not point into the Markdown file: %v", err)
			}
		})
	}
}

// A program marked long-running is built and vetted, never run.
func TestCheckSkipsLongRunning(t *testing.T) {
	b := Block{File: "server.md", Line: 3, LongRunning: true,
		Code: "package main\n\nimport \"time\"\n\nfunc main() { time.Sleep(time.Hour) }\n"}
	if err := check(t.Context(), newModule(t, repoRoot(t)), 0, b, time.Second); err != nil {
		t.Errorf("check of a long-running program: %v", err)
	}
}

// check writes the block as package n of the module at mod, vets and builds
// it, and runs a whole program not marked long-running for at most runFor:
// it must exit 0, and print what its output comments say, if it has any.
func check(ctx context.Context, mod string, n int, b Block, runFor time.Duration) error {
	pkg, src, err := write(mod, n, b)
	if err != nil {
		return err
	}
	steps := [][]string{{"vet", pkg}}
	if runs(b) {
		// go vet type-checks the block as the compiler does; only a block
		// that runs needs its binary linked.
		steps = append(steps, []string{"build", "-o", binary(mod, n), pkg})
	}
	for _, args := range steps {
		if out, err := goCommand(ctx, mod, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s\nthe code as compiled:\n%s", strings.Join(args, " "), err, out, src)
		}
	}
	return runBlock(ctx, mod, n, b, runFor)
}

// buildAll writes every block as package i of the module at mod, vets
// them with one go command and builds those that run with another.
func buildAll(ctx context.Context, mod string, blocks []Block) error {
	vet, build := []string{"vet"}, []string{"build", "-o", filepath.Join(mod, "bin") + string(filepath.Separator)}
	for i, b := range blocks {
		pkg, _, err := write(mod, i, b)
		if err != nil {
			return err
		}
		vet = append(vet, pkg)
		if runs(b) {
			build = append(build, pkg)
		}
	}
	for _, args := range [][]string{vet, build} {
		if err := goCommand(ctx, mod, args...).Run(); err != nil {
			return err
		}
	}
	return nil
}

// write writes block b as package n of the module at mod, and returns the
// package's path and the code as compiled.
func write(mod string, n int, b Block) (pkg, src string, err error) {
	if src, err = b.Source(); err != nil {
		return "", "", err
	}
	pkg = fmt.Sprintf("./b%d", n)
	if err := os.MkdirAll(filepath.Join(mod, pkg), 0o755); err != nil {
		return "", "", err
	}
	return pkg, src, os.WriteFile(filepath.Join(mod, pkg, "main.go"), []byte(src), 0o644)
}

// runs reports whether block b is run, not only built.
func runs(b Block) bool { return b.IsProgram() && !b.LongRunning }

// binary is where block n's program is built.
func binary(mod string, n int) string { return filepath.Join(mod, "bin", fmt.Sprintf("b%d", n)) }

// runBlock runs block n's program, built, unless it is not run: it must
// exit 0 within runFor and print what its output comments say.
func runBlock(ctx context.Context, mod string, n int, b Block, runFor time.Duration) error {
	if !runs(b) {
		return nil
	}
	bin := binary(mod, n)
	ctx, cancel := context.WithTimeout(ctx, runFor)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s:%d: the program did not end within %v (mark a server or client \"```go long-running\")", b.File, b.Line, runFor)
		}
		return fmt.Errorf("%s:%d: the program failed: %v\n%s", b.File, b.Line, err, stderr.Bytes())
	}
	want := b.Output()
	if want == nil {
		return nil
	}
	got := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if stdout.Len() == 0 {
		got = nil
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Errorf("%s:%d: printed line %d %q, want %q as its comment says", b.File, b.Line, i+1, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%s:%d: printed %d lines, want %d, one per commented print:\n%s", b.File, b.Line, len(got), len(want), stdout.Bytes())
	}
	return nil
}

// newModule returns a module in a temporary directory, outside the
// checkout, that requires this repository's module from root, and its
// host/prom module: a user's module, but with neither the workspace nor
// the network. host/prom's dependencies come from the module cache, where
// loading the README's test command, ./host/prom/... among its patterns,
// put them.
func newModule(t *testing.T, root string) string {
	t.Helper()
	if os.Getenv("GOWORK") == "off" {
		t.Skip("the blocks need host/prom's module, built only in the workspace (go.work)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is needed to build the blocks:", err)
	}
	mod := t.TempDir()
	prom := filepath.Join(root, "host", "prom")
	gomod := fmt.Sprintf("module example.com/readme\n\ngo 1.26\n\n"+
		"require (\n\tgithub.com/rtypeproto/rtype v0.0.0\n\tgithub.com/rtypeproto/rtype/host/prom v0.0.0\n)\n\n"+
		"replace github.com/rtypeproto/rtype => %s\n\nreplace github.com/rtypeproto/rtype/host/prom => %s\n", root, prom)
	var sum []byte
	for _, dir := range []string{root, prom} {
		b, err := os.ReadFile(filepath.Join(dir, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		sum = append(sum, b...)
	}
	if err := errors.Join(
		os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644),
		os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644),
	); err != nil {
		t.Fatal(err)
	}
	return mod
}

// goCommand runs the go command in dir, outside any workspace, offline.
func goCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local")
	return cmd
}

// repoRoot returns the directory of the repository's root module.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/rtypeproto/rtype\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of github.com/rtypeproto/rtype above the test's directory")
		}
		dir = parent
	}
}

// markdownFiles returns the repository's Markdown files, relative to root,
// leaving out hidden directories and test data.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".md") {
			rel, err := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "README.md") {
		t.Fatalf("no README.md in %s", root)
	}
	return files
}

func countIn(blocks []Block, file string) int {
	n := 0
	for _, b := range blocks {
		if b.File == file {
			n++
		}
	}
	return n
}

// The game guide's "Writing a client" and "Writing a server" (docs/game.md)
// show the minimal programs whole: each is one of its Go blocks, to the
// byte, so the guide shows what `go run ./examples/minimal/…` runs and
// rtypecheck judges.
func TestGameDocShowsMinimalPrograms(t *testing.T) {
	root := repoRoot(t)
	const doc = "docs/game.md"
	md, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
	if err != nil {
		t.Fatal(err)
	}
	blocks := GoBlocks(doc, md)
	for _, prog := range []string{"examples/minimal/client/main.go", "examples/minimal/server/main.go"} {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(prog)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(blocks, func(b Block) bool { return b.Code == string(src) }) {
			t.Errorf("%s has no Go block identical to %s", doc, prog)
		}
	}
}
