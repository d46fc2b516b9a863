//go:build js && wasm

package main

import (
	"math"
	"syscall/js"

	"github.com/rtypeproto/rtype/cmd/rtypeweb/internal/play"
	rgame "github.com/rtypeproto/rtype/examples/game"
	rsession "github.com/rtypeproto/rtype/session"
)

// screen is the page's canvas, the example game's playfield (§9.1).
type screen struct {
	ctx js.Value
}

func newScreen(canvas js.Value) *screen {
	canvas.Set("width", rgame.Width)
	canvas.Set("height", rgame.Height)
	canvas.Call("focus")
	return &screen{ctx: canvas.Call("getContext", "2d")}
}

// status draws a line alone on the screen.
func (s *screen) status(msg string) { s.draw(nil, 0, []string{msg}) }

// draw draws the world, then the HUD over it.
func (s *screen) draw(ents []rsession.Entity, own uint32, hud []string) {
	c := s.ctx
	c.Set("fillStyle", "#05050f")
	c.Call("fillRect", 0, 0, rgame.Width, rgame.Height)
	for _, e := range ents {
		s.shape(play.ShapeOf(e, e.ID == own))
	}
	c.Set("fillStyle", "#ddd")
	c.Set("font", "24px monospace")
	for i, l := range hud {
		c.Call("fillText", l, 16, 36+32*i)
	}
}

// shape draws one entity.
func (s *screen) shape(sh play.Shape) {
	c := s.ctx
	c.Call("save")
	c.Call("translate", sh.X, sh.Y)
	c.Set("fillStyle", sh.Color)
	c.Call("beginPath")
	switch sh.Kind {
	case play.KindShip:
		c.Call("moveTo", sh.W/2, 0)
		c.Call("lineTo", -sh.W/2, -sh.H/2)
		c.Call("lineTo", -sh.W/4, 0)
		c.Call("lineTo", -sh.W/2, sh.H/2)
		c.Call("closePath")
	case play.KindBydo:
		c.Call("arc", 0, 0, sh.W/2, 0, 2*math.Pi)
	default:
		c.Call("rotate", sh.Rotate)
		c.Call("rect", -sh.W/2, -sh.H/2, sh.W, sh.H)
	}
	c.Call("fill")
	if sh.Own {
		c.Set("strokeStyle", "#fff")
		c.Set("lineWidth", 3)
		c.Call("stroke")
	}
	c.Call("restore")
}
