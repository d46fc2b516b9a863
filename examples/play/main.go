// A terminal game: js/wasm, which has no terminal, is left out.
//go:build !js

// Command play joins an R-Type server as a player, in a terminal: it draws
// the playfield at the terminal's size and sends one Input per frame, 60
// per second, from the keys held (§7.1, §10).
//
//	go run ./examples/play -server 127.0.0.1:4242
//
// Arrows or WASD move, Space shoots: a missile fires when Shoot goes from
// set to cleared (§7.1). q or Ctrl-C quits, sending Disconnect reason 1,
// client quit (§7.3), as do SIGINT, SIGTERM and SIGHUP, the terminal's
// hangup when its window is closed.
//
// Most terminals report key presses, and a held key's auto-repeats, but
// never a release. Where the terminal speaks the Kitty keyboard protocol,
// which reports releases, a key is held from its press to its release, and
// Space shoots when released. Elsewhere a key is held while its repeats
// keep coming, and released 150 ms after the last; a first press holds
// for -repeat-delay (500 ms), the system's usual delay before the first
// repeat, so that a held key moves without a stop; and each Space press,
// or repeat, is one shot: Shoot set for one frame, cleared in the next.
// Such terminals repeat only the last key pressed: a press of a direction
// releases the opposite one at once, and a diagonal is held by tapping two
// keys in turn. Without a release there is no telling a tap from a hold
// before the first repeat, so a tap moves the ship for -repeat-delay; set
// it to the system's delay, if shorter. The help line says which mode is
// in force.
//
// It draws the world as a session.View sees it (docs/client.md): every
// entity moving smoothly, a buffer behind the server, and the player's own
// ship where its Inputs put it, at once, by the example game's rules.
//
// The screen shows the connection's state until the server sends the
// world: connecting, or waiting for a slot on a full server (§10). A
// session that fails, rejected by the server (§4.4) or timed out (§4.2,
// §13.3), is shown until q, Enter, Esc or Ctrl-C is pressed (a key held
// when it failed goes on repeating, and does not count); then play exits 1
// with the reason on stderr. It exits 0 when the user quit, 2 for bad flags.
//
// With -trace DIR it writes a qlog trace of its connection into DIR
// (docs/trace.md); with -pcap FILE it records every datagram it sends and
// receives into a capture file that rtypedump and Wireshark read.
//
// With -loss, play drops that fraction of the datagrams in each direction,
// as examples/bot does, to watch what loss does to the game; never the
// one that carries the Disconnect of a quit, which leaves the game.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/internal/udpaddr"
	"github.com/rtypeproto/rtype/pcap"
	"github.com/rtypeproto/rtype/qlog"
	"github.com/rtypeproto/rtype/session"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "127.0.0.1:4242", "server UDP address")
	loss := fs.Float64("loss", 0, "fraction of datagrams dropped in each direction")
	seed := fs.Uint64("seed", 1, "seed of the simulated loss")
	delay := fs.Duration("repeat-delay", DefaultRepeatDelay,
		"without key releases: how long a first press holds a key, the system's delay before auto-repeat")
	traceDir := fs.String("trace", "", "write a qlog trace of the connection into `DIR` (docs/trace.md)")
	pcapFile := fs.String("pcap", "", "record every datagram sent and received into the capture `FILE`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *loss < 0 || *loss >= 1 || *delay <= 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "play: need 0 ≤ -loss < 1, -repeat-delay > 0 and no arguments")
		return 2
	}
	addr, err := udpaddr.Resolve(*server)
	if err != nil {
		fmt.Fprintln(stderr, "play:", err)
		return 2
	}
	cfg := bot.SessionConfig(session.ClientConfig{})
	var traces *qlog.Dir
	if *traceDir != "" {
		if traces, err = qlog.NewDir(*traceDir, qlog.Client); err != nil {
			fmt.Fprintln(stderr, "play: -trace:", err)
			return 2
		}
		cfg.Tracer = traces
	}
	var capture *pcap.Writer
	if *pcapFile != "" {
		if capture, err = pcap.Create(*pcapFile); err != nil {
			fmt.Fprintln(stderr, "play: -pcap:", err)
			return 2
		}
	}
	l, err := listen(addr)
	if err != nil {
		fmt.Fprintln(stderr, "play:", err)
		return 1
	}
	hooks := lossHooks(*loss, *seed)
	if capture != nil {
		hooks = capture.Hooks(l.conn.LocalAddr().(*net.UDPAddr).AddrPort(), hooks)
	}
	p := newPlayer(addr, cfg, l.send, hooks)
	prog := tea.NewProgram(newModel(p, NewControls(*delay), time.Now))
	go l.read(prog.Send)
	stop := make(chan struct{})
	go tickFrames(stop, session.DefaultInterval, prog.Send) // 60 frames/s (§7.1, §10)
	stopHangup := quitOnHangup(prog.Quit)
	_, runErr := prog.Run()
	stopHangup()
	close(stop)
	p.close(time.Now()) // after a signal or a hangup too: Disconnect reason 1 (§7.3)
	l.close()
	if traces != nil {
		if err := traces.Close(); err != nil {
			fmt.Fprintln(stderr, "play: -trace:", err)
			return 1
		}
	}
	if capture != nil {
		if err := capture.Close(); err != nil {
			fmt.Fprintln(stderr, "play: -pcap:", err)
			return 1
		}
	}
	switch {
	case p.err != nil:
		fmt.Fprintln(stderr, "play:", p.failure())
		return 1
	case runErr != nil && !errors.Is(runErr, tea.ErrInterrupted):
		fmt.Fprintln(stderr, "play:", runErr)
		return 1
	}
	return 0
}
