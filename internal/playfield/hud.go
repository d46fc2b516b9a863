package playfield

import (
	"math"
	"strconv"
	"time"
)

// HUD is what the bottom line of a frame says.
type HUD struct {
	Tick     uint32        // the latest Snapshot's serverTick (§8.1)
	Players  int           // ships in the table
	Entities int           // entities in the table
	RTT      time.Duration // round trip (§7.2); 0 before the first Pong
	Loss     float64       // fraction of server packets lost (§5.2)
	Status   string        // optional: "waiting for a slot", "rejected by the server", ...
}

// draw writes the HUD into l, cut at its end: "tick 1234  players 4
// entities 17  rtt 1.25ms  loss 0.5%" and the status.
func (h *HUD) draw(l []Cell) {
	w := writer{l: l}
	var num [32]byte
	w.str("tick ")
	w.bytes(strconv.AppendUint(num[:0], uint64(h.Tick), 10))
	w.str("  players ")
	w.bytes(strconv.AppendInt(num[:0], int64(h.Players), 10))
	w.str("  entities ")
	w.bytes(strconv.AppendInt(num[:0], int64(h.Entities), 10))
	w.str("  rtt ")
	w.bytes(appendRTT(num[:0], h.RTT))
	w.str("  loss ")
	w.bytes(appendLoss(num[:0], h.Loss))
	if h.Status != "" {
		w.str("  ")
		w.str(h.Status)
	}
}

// appendRTT writes d as the demo's table rounds it: milliseconds with two
// decimals from 1 ms, whole microseconds below, "-" before any sample.
func appendRTT(b []byte, d time.Duration) []byte {
	switch {
	case d <= 0:
		return append(b, '-')
	case d < time.Millisecond:
		return append(strconv.AppendInt(b, int64(d.Round(time.Microsecond)/time.Microsecond), 10), "µs"...)
	}
	return append(strconv.AppendFloat(b, float64(d)/float64(time.Millisecond), 'f', 2, 64), "ms"...)
}

// appendLoss writes a fraction as a percentage with one decimal, "-" when
// it is no fraction.
func appendLoss(b []byte, f float64) []byte {
	if !(f >= 0 && f <= 1) || math.IsNaN(f) {
		return append(b, '-')
	}
	return append(strconv.AppendFloat(b, 100*f, 'f', 1, 64), '%')
}

// writer puts text into a line of cells, dropping what does not fit.
type writer struct {
	l []Cell
	n int
}

func (w *writer) str(s string) {
	for _, r := range s {
		w.rune(r)
	}
}

func (w *writer) bytes(b []byte) {
	for _, r := range string(b) { // no copy: the compiler ranges over b
		w.rune(r)
	}
}

func (w *writer) rune(r rune) {
	if r < ' ' || r == 0x7f {
		r = '?' // a control character would move the terminal's cursor
	}
	if w.n < len(w.l) {
		w.l[w.n] = Cell{r, None}
		w.n++
	}
}
