package main

import (
	"io"
	"slices"
	"sync"
	"time"

	"github.com/rtypeproto/rtype/examples/internal/bot"
	"github.com/rtypeproto/rtype/internal/playfield"
	"github.com/rtypeproto/rtype/session"
)

// watchEvery is the time between two frames of -watch: 25 per second,
// more than the 20 Snapshots per second that move the entities (§8.1, §10).
const watchEvery = 40 * time.Millisecond

// Escapes of -watch around its frames.
const (
	hideCursor  = "\x1b[?25l"
	showCursor  = "\x1b[?25h"
	clearScreen = "\x1b[2J"
)

// watcher draws one bot's view of the playfield on a terminal, in place of
// the progress lines. The bot's goroutine copies its entity table in with
// see; the watcher's goroutine draws it.
type watcher struct {
	out  io.Writer
	size func() (cols, rows int)
	bot  *bot.Bot

	mu   sync.Mutex
	ents []session.Entity
	hud  playfield.HUD

	// Used by the drawing goroutine only.
	frame      playfield.Frame
	buf        []byte
	cols, rows int
}

// startWatch draws b's view on out, at the size of out's terminal, until
// the returned function is called. Call it before b runs.
func startWatch(out io.Writer, b *bot.Bot) (stop func()) {
	return newWatcher(out, func() (int, int) { return terminalSize(out) }, b).start()
}

// newWatcher returns a watcher of b drawing on out, at the size size gives.
func newWatcher(out io.Writer, size func() (cols, rows int), b *bot.Bot) *watcher {
	w := &watcher{out: out, size: size, bot: b}
	b.Watch(w.see)
	return w
}

// start draws until the returned function is called; that function draws
// a last frame, shows the cursor again and leaves it below the drawing, for
// what is printed next.
func (w *watcher) start() (stop func()) {
	io.WriteString(w.out, hideCursor)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		w.loop(quit)
	}()
	return func() {
		close(quit)
		<-done
		w.draw()
		io.WriteString(w.out, showCursor+"\r\n")
	}
}

// loop draws a frame every watchEvery until quit is closed.
func (w *watcher) loop(quit <-chan struct{}) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	w.draw()
	for {
		select {
		case <-quit:
			return
		case <-t.C:
			w.draw()
		}
	}
}

// see copies what the bot's client holds; it runs on the bot's goroutine,
// between two of its frames.
func (w *watcher) see(v bot.View) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ents = slices.AppendSeq(w.ents[:0], v.Entities)
	w.hud = playfield.HUD{Tick: v.Tick, RTT: v.RTT, Loss: v.Loss}
	w.hud.Count(slices.Values(w.ents))
}

// draw renders the latest view at the terminal's current size, clearing
// the screen first when that size changed, and writes it.
func (w *watcher) draw() {
	cols, rows := w.size()
	r := w.bot.Live()
	w.mu.Lock()
	hud := w.hud
	hud.Status = r.Name + " " + r.Progress()
	w.frame = playfield.Render(w.frame, playfield.Example, slices.Values(w.ents), hud, cols, rows)
	w.mu.Unlock()
	w.buf = w.buf[:0]
	if cols != w.cols || rows != w.rows {
		w.cols, w.rows = cols, rows
		w.buf = append(w.buf, clearScreen...) // no leftovers of a larger frame
	}
	w.buf = w.frame.AppendANSI(w.buf)
	w.out.Write(w.buf)
}
