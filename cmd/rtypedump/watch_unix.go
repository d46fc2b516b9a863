//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"bufio"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rtypeproto/rtype/internal/playfield"
)

// watchTerminal plays p on the terminal of in and out until q, at 60
// frames a second. The terminal is put in raw mode, on the alternate
// screen, and restored at the end.
func watchTerminal(p *replayer, in *os.File, out *os.File) error {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return errNoTerminal
	}
	raw := *old
	raw.Lflag &^= unix.ECHO | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Iflag &^= unix.IXON | unix.ICRNL
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &raw); err != nil {
		return err
	}
	defer unix.IoctlSetTermios(fd, ioctlSetTermios, old)
	io.WriteString(out, "\x1b[?1049h\x1b[?25l")
	defer io.WriteString(out, "\x1b[?25h\x1b[?1049l")

	keys := make(chan string, 16)
	go readKeys(in, keys)
	hangup := make(chan os.Signal, 1)
	signal.Notify(hangup, syscall.SIGHUP, syscall.SIGTERM)
	defer signal.Stop(hangup)
	t := time.NewTicker(frameStep)
	defer t.Stop()
	var fr playfield.Frame
	var buf []byte
	last := time.Now()
	for {
		select {
		case k, ok := <-keys:
			if !ok || !p.key(k) {
				return nil
			}
		case <-hangup:
			return nil
		case now := <-t.C:
			p.play(now.Sub(last))
			last = now
			cols, rows := 80, 24
			if ws, err := unix.IoctlGetWinsize(int(out.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
				cols, rows = int(ws.Col), int(ws.Row)
			}
			fr = p.frame(fr, cols, rows)
			buf = fr.AppendANSI(append(buf[:0], "\x1b[H"...))
			if _, err := out.Write(buf); err != nil {
				return err
			}
		}
	}
}

// readKeys sends each key read from in: arrows as "left" and "right",
// Ctrl-C as "q", other bytes as themselves; it closes keys at the end.
func readKeys(in io.Reader, keys chan<- string) {
	defer close(keys)
	r := bufio.NewReader(in)
	for {
		b, err := r.ReadByte()
		if err != nil {
			return
		}
		switch b {
		case 0x1b:
			if r.Buffered() >= 2 {
				seq := make([]byte, 2)
				_, _ = io.ReadFull(r, seq)
				switch string(seq) {
				case "[C":
					keys <- "right"
				case "[D":
					keys <- "left"
				}
				continue
			}
			keys <- "q" // Esc alone
		case 3:
			keys <- "q"
		default:
			keys <- string(rune(b))
		}
	}
}
