package play

import (
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// The keys a player expects: arrows or WASD move, space shoots (§7.1).
func TestKeys(t *testing.T) {
	for code, want := range map[string]rtype.Actions{
		"ArrowUp": rtype.ActionUp, "KeyS": rtype.ActionDown, "ArrowLeft": rtype.ActionLeft,
		"KeyD": rtype.ActionRight, "Space": rtype.ActionShoot, "Enter": 0, "": 0,
	} {
		if got := Keys(code); got != want {
			t.Errorf("Keys(%q) = %v, want %v", code, got, want)
		}
	}
}

// The first frame sends Hello (§4.1) through the send function, and the
// player stays connecting until a Welcome; quitting ends it.
func TestPlayer_SendsHelloThenQuits(t *testing.T) {
	now := time.Unix(0, 0)
	var sent [][]byte
	p := New(func(b []byte) { sent = append(sent, append([]byte(nil), b...)) }, now)
	p.Hold(rtype.ActionRight | 0x80)
	p.Frame(now)
	if len(sent) != 1 || len(sent[0]) != 6 {
		t.Fatalf("first frame sent %d datagrams, want one 6-byte Hello", len(sent))
	}
	if s := p.Stats(); s.State != "Connecting" || s.Own != nil {
		t.Errorf("state %q own %v, want Connecting with no ship", s.State, s.Own)
	}
	p.Quit(now)
	if !p.Done() || p.Stats().State != "Quit" {
		t.Errorf("after Quit: done %v, state %q", p.Done(), p.Stats().State)
	}
}

// The frame intervals' percentiles.
func TestFrameClock(t *testing.T) {
	var f frameClock
	now := time.Unix(0, 0)
	for i := range 100 {
		f.tick(now)
		d := 16 * time.Millisecond
		if i == 50 {
			d = 100 * time.Millisecond
		}
		now = now.Add(d)
	}
	if p50, p99 := f.percentiles(); p50 != 16*time.Millisecond || p99 != 16*time.Millisecond {
		t.Errorf("p50 %v p99 %v, want 16ms and 16ms (one slow frame in 99)", p50, p99)
	}
}

// A server that answers Rejected ends the session with that said on the
// HUD (§4.4).
func TestPlayer_RejectedSaysWhy(t *testing.T) {
	now := time.Unix(0, 0)
	p := New(func([]byte) {}, now)
	p.Frame(now)
	rejected := []byte{0x52, 0x54, 0x59, 0x50, 1, 3} // magic, version 1, Rejected
	p.Receive(rejected, now)
	p.Frame(now.Add(time.Millisecond))
	s := p.Stats()
	if !p.Done() || s.Why == "" {
		t.Fatalf("after Rejected: done %v, why %q", p.Done(), s.Why)
	}
	if hud := s.HUD(); hud[len(hud)-1] != s.Why+": reload to play again" {
		t.Errorf("HUD %q", hud)
	}
}
