package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype/netem"
)

func profile(t *testing.T, name string) netem.Profile {
	t.Helper()
	p, ok := netem.LookupProfile(name)
	if !ok {
		t.Fatalf("no profile %q", name)
	}
	return p
}

// TestFlagPrecedence: a per-direction flag overrides the one for both
// directions, which overrides the profile, wherever each stands on the
// command line.
func TestFlagPrecedence(t *testing.T) {
	g3 := profile(t, "3g")
	with := func(p netem.Params, f func(*netem.Params)) netem.Params {
		f(&p)
		return p
	}
	tests := []struct {
		name     string
		args     []string
		up, down netem.Params
	}{
		{"nothing", nil, netem.Params{}, netem.Params{}},
		{"profile", []string{"-profile", "3g"}, g3.Up, g3.Down},
		{"both directions", []string{"-loss", "0.2", "-delay", "50ms"},
			netem.Params{Loss: 0.2, Delay: 50 * time.Millisecond}, netem.Params{Loss: 0.2, Delay: 50 * time.Millisecond}},
		{"per direction", []string{"-up-loss", "0.1", "-down-delay", "1s"},
			netem.Params{Loss: 0.1}, netem.Params{Delay: time.Second}},
		{"both over profile", []string{"-profile", "3g", "-loss", "0.5"},
			with(g3.Up, func(p *netem.Params) { p.Loss = 0.5 }), with(g3.Down, func(p *netem.Params) { p.Loss = 0.5 })},
		{"profile after the flag still loses", []string{"-loss", "0.5", "-profile", "3g"},
			with(g3.Up, func(p *netem.Params) { p.Loss = 0.5 }), with(g3.Down, func(p *netem.Params) { p.Loss = 0.5 })},
		{"direction over both, in any order", []string{"-up-loss", "0.3", "-loss", "0.5", "-profile", "3g"},
			with(g3.Up, func(p *netem.Params) { p.Loss = 0.3 }), with(g3.Down, func(p *netem.Params) { p.Loss = 0.5 })},
		{"every impairment", []string{"-loss", "0.1", "-burst", "3", "-delay", "10ms", "-jitter", "5ms", "-reorder", "0.05",
			"-reorder-delay", "30ms", "-dup", "0.01", "-rate", "1.5M", "-queue", "32k", "-blackout", "5s/2s", "-down-rate", "256k"},
			netem.Params{Loss: 0.1, Burst: 3, Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond, Reorder: 0.05,
				ReorderDelay: 30 * time.Millisecond, Dup: 0.01, Rate: 1500000, Queue: 32 << 10, Blackout: netem.Blackout{Every: 5 * time.Second, For: 2 * time.Second}},
			netem.Params{Loss: 0.1, Burst: 3, Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond, Reorder: 0.05,
				ReorderDelay: 30 * time.Millisecond, Dup: 0.01, Rate: 256000, Queue: 32 << 10, Blackout: netem.Blackout{Every: 5 * time.Second, For: 2 * time.Second}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			c, err := parseFlags(append([]string{"-server", "127.0.0.1:4242"}, tt.args...), &out, &errs)
			if err != nil {
				t.Fatalf("parseFlags: %v (%s)", err, errs.String())
			}
			if d := cmp.Diff(tt.up, c.up); d != "" {
				t.Errorf("client to server (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.down, c.down); d != "" {
				t.Errorf("server to client (-want +got):\n%s", d)
			}
		})
	}
}

// TestFlagDefaults: the documented defaults.
func TestFlagDefaults(t *testing.T) {
	var out, errs bytes.Buffer
	c, err := parseFlags([]string{"-server", "h:1"}, &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	want := config{listen: ":4243", server: "h:1", log: "text", seed: 1, maxClients: 64, idle: 30 * time.Second}
	if d := cmp.Diff(want, c, cmp.AllowUnexported(config{})); d != "" {
		t.Errorf("defaults (-want +got):\n%s", d)
	}
}

// TestBadFlags: each bad command line is refused with a message on stderr
// and exit status 2, before anything listens.
func TestBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no server", nil, "-server is required"},
		{"unknown flag", []string{"-server", "h:1", "-nope"}, "flag provided but not defined: -nope"},
		{"loss not a number", []string{"-server", "h:1", "-loss", "much"}, `invalid value "much" for flag -loss`},
		{"loss above 1", []string{"-server", "h:1", "-loss", "1.5"}, "client to server"},
		{"down loss below 0", []string{"-server", "h:1", "-down-loss", "-0.1"}, "server to client"},
		{"dup above 1", []string{"-server", "h:1", "-up-dup", "2"}, "client to server"},
		{"bad delay", []string{"-server", "h:1", "-delay", "soon"}, `invalid value "soon" for flag -delay`},
		{"bad rate", []string{"-server", "h:1", "-rate", "fast"}, `invalid value "fast" for flag -rate`},
		{"bad queue", []string{"-server", "h:1", "-down-queue", "big"}, `invalid value "big" for flag -down-queue`},
		{"bad blackout", []string{"-server", "h:1", "-blackout", "5s"}, `invalid value "5s" for flag -blackout`},
		{"unknown profile", []string{"-server", "h:1", "-profile", "moon"}, "unknown -profile"},
		{"bad log", []string{"-server", "h:1", "-log", "xml"}, "-log must be"},
		{"no clients", []string{"-server", "h:1", "-max-clients", "0"}, "-max-clients"},
		{"a billion clients", []string{"-server", "h:1", "-max-clients", "1000000000"}, "-max-clients must be 1 to 4096"},
		{"just past the bound", []string{"-server", "h:1", "-max-clients", "4097"}, "-max-clients must be 1 to 4096"},
		{"no idle", []string{"-server", "h:1", "-idle", "0s"}, "-idle"},
		{"an argument", []string{"-server", "h:1", "extra"}, "no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := run(t.Context(), tt.args, &out, &errs, func(*proxy) { t.Error("the proxy started") })
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(errs.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, errs.String())
			}
			if out.Len() != 0 {
				t.Errorf("stdout not empty:\n%s", out.String())
			}
		})
	}
}

// TestHelp: -h and -help print the usage on stdout, every flag and every
// profile with its figures, and exit 0.
func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help"} {
		var out, errs bytes.Buffer
		if code := run(t.Context(), []string{arg}, &out, &errs, nil); code != exitOK {
			t.Errorf("%s: exit %d, want 0", arg, code)
		}
		if errs.Len() != 0 {
			t.Errorf("%s: stderr not empty:\n%s", arg, errs.String())
		}
		help := out.String()
		for _, p := range netem.Profiles() {
			for _, want := range []string{p.Name + ": " + p.About, "up:   " + p.Up.String(), "down: " + p.Down.String()} {
				if !strings.Contains(help, want) {
					t.Errorf("%s: the usage lacks %q", arg, want)
				}
			}
		}
		for _, im := range impairments {
			if want := "  -" + im.name + " " + im.arg + "\n"; !strings.Contains(help, want) {
				t.Errorf("%s: the usage lacks %q", arg, want)
			}
		}
		for _, want := range []string{"-up-X for client to server, -down-X for server to", "  -server string\n", "  -idle duration\n"} {
			if !strings.Contains(help, want) {
				t.Errorf("%s: the usage lacks %q", arg, want)
			}
		}
		for _, name := range []string{"lan", "wifi", "dsl", "3g", "lossy"} {
			profile(t, name)
		}
	}
}

// TestMaxClientsAtBound: the largest -max-clients is taken, and the table
// it sizes costs nothing until clients come.
func TestMaxClientsAtBound(t *testing.T) {
	var out, errs bytes.Buffer
	c, err := parseFlags([]string{"-server", "h:1", "-max-clients", "4096"}, &out, &errs)
	if err != nil || c.maxClients != maxClientsBound {
		t.Fatalf("-max-clients 4096: %v, %d (%s)", err, c.maxClients, errs.String())
	}
	if n := testing.AllocsPerRun(10, func() { newClientTable(c.maxClients, time.Second) }); n > 2 {
		t.Errorf("an empty table of %d clients takes %v allocations", c.maxClients, n)
	}
}
