//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/cmd/rtypeweb/internal/play"
)

func main() {
	doc := js.Global().Get("document")
	var cfg config
	if err := json.Unmarshal([]byte(doc.Call("getElementById", "rtype-config").Get("textContent").String()), &cfg); err != nil {
		console("error", "rtype: the page's configuration: "+err.Error())
		return
	}
	start := time.Now()
	loaded := js.Global().Get("performance").Call("now").Float()
	scr := newScreen(doc.Call("getElementById", "screen"))
	if js.Global().Get("WebTransport").IsUndefined() {
		scr.status("this browser has no WebTransport: play in Chromium 97+ or Firefox 114+")
		console("error", "rtype: no WebTransport in this browser")
		return
	}
	scr.status("connecting to the gateway...")
	t, err := dial(cfg, js.Global().Get("location").Get("search").String())
	if err != nil {
		scr.status("no WebTransport session to the gateway: " + err.Error())
		console("error", "rtype: no WebTransport session: "+err.Error())
		return
	}
	g := &session{t: t, p: play.New(t.send, start), scr: scr}
	g.p.SetLoad(loaded)
	g.listen()
	g.loop()
	select {} // the callbacks run the game from now on
}

// console writes to the browser's console at level ("log", "error").
func console(level, msg string) { js.Global().Get("console").Call(level, msg) }

// session ties the player to the page: the session, the keys, the frames.
type session struct {
	t     *transport
	p     *play.Player
	scr   *screen
	held  rtype.Actions
	last  time.Time // the last frame run
	ended bool
}

// listen installs the keyboard and the page's hooks.
func (g *session) listen() {
	win := js.Global()
	key := func(down bool) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any {
			e := args[0]
			code := e.Get("code").String()
			if down && code == "Escape" {
				g.quit()
				return nil
			}
			a := play.Keys(code)
			if a == 0 {
				return nil
			}
			e.Call("preventDefault")
			if down {
				g.held |= a
			} else {
				g.held &^= a
			}
			return nil
		})
	}
	win.Call("addEventListener", "keydown", key(true))
	win.Call("addEventListener", "keyup", key(false))
	win.Call("addEventListener", "blur", js.FuncOf(func(js.Value, []js.Value) any { g.held = 0; return nil }))
	win.Call("addEventListener", "pagehide", js.FuncOf(func(js.Value, []js.Value) any { g.quit(); return nil }))
	win.Set("rtypeQuit", js.FuncOf(func(js.Value, []js.Value) any { g.quit(); return nil }))
	win.Set("rtypeStats", js.FuncOf(func(js.Value, []js.Value) any {
		b, _ := json.Marshal(g.p.Stats())
		return string(b)
	}))
}

// loop runs a frame at each display refresh, and from a timer when the
// tab is hidden, where browsers stop refreshing: every 100 ms, or as
// often as they let a hidden tab, so a hidden player keeps its session.
func (g *session) loop() {
	var raf js.Func
	raf = js.FuncOf(func(js.Value, []js.Value) any {
		g.frame(true)
		if !g.ended {
			js.Global().Call("requestAnimationFrame", raf)
		}
		return nil
	})
	js.Global().Call("requestAnimationFrame", raf)
	js.Global().Call("setInterval", js.FuncOf(func(js.Value, []js.Value) any {
		if !g.ended && time.Since(g.last) > 100*time.Millisecond {
			g.frame(false)
		}
		return nil
	}), 100)
}

// frame hands the client what arrived, runs it, and draws.
func (g *session) frame(draw bool) {
	now := time.Now()
	g.last = now
	select {
	case <-g.t.closed: // nothing can be sent any more
		g.p.Lost("the gateway closed the session", now)
	default:
	}
	for more := true; more; {
		select {
		case a := <-g.t.in:
			g.p.Receive(a.b, a.at)
		case f := <-g.t.figures:
			g.p.SetGateway(f)
			if f.Quit {
				g.quit()
			}
		default:
			more = false
		}
	}
	g.p.Hold(g.held)
	ents := g.p.Frame(now)
	if draw {
		own, _ := g.p.Own()
		g.scr.draw(ents, own.ID, g.p.Stats().HUD())
	}
	if g.p.Done() && !g.ended {
		g.end()
	}
}

// quit leaves the game: Disconnect, reason 1 (§7.3), then the session.
func (g *session) quit() {
	if g.ended {
		return
	}
	g.p.Quit(time.Now())
	g.end()
}

// end closes the session once the client stopped, drawing why.
func (g *session) end() {
	g.ended = true
	g.scr.draw(nil, 0, g.p.Stats().HUD())
	go g.t.closeOnceSent() // the Disconnect first
}
