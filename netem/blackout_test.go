package netem

import (
	"testing"
	"time"
)

// TestBlackoutEdges: nothing passes in [k·EVERY, k·EVERY+FOR) for k ≥ 1,
// to the nanosecond, and the start (k = 0) is never dark.
func TestBlackoutEdges(t *testing.T) {
	const s = time.Second
	b := Blackout{Every: 5 * s, For: 2 * s}
	tests := []struct {
		at   time.Duration
		dark bool
	}{
		{-time.Hour, false},
		{-3 * s, false}, // before the start is not window k = −1
		{0, false},
		{2*s - 1, false},
		{5*s - 1, false},
		{5 * s, true},
		{6 * s, true},
		{7*s - 1, true},
		{7 * s, false},
		{10*s - 1, false},
		{10 * s, true},
		{12*s - 1, true},
		{12 * s, false},
		{5000*s + 2*s - 1, true},
		{5000*s + 2*s, false},
		{1<<63 - 1, true}, // 9223372036.854775807s: 1.854…s past a multiple of 5s
	}
	for _, tt := range tests {
		l := NewLink(Params{Blackout: b}, epoch, 1)
		o := l.Decide(epoch.Add(tt.at), 100)
		if got := o.Drop == DropBlackout; got != tt.dark || (!got && o != Outcome{}) {
			t.Errorf("at %v: %+v, want dark %v", tt.at, o, tt.dark)
		}
		if got := b.dark(tt.at); got != tt.dark {
			t.Errorf("dark(%v) = %v, want %v", tt.at, got, tt.dark)
		}
	}
}

// TestBlackoutBeforeLoss: a datagram in a blackout is reported as such
// even on a link that loses everything, and does not step the loss chain.
func TestBlackoutBeforeLoss(t *testing.T) {
	l := NewLink(Params{Loss: 1, Blackout: Blackout{Every: 2 * time.Second, For: time.Second}}, epoch, 1)
	if o := l.Decide(epoch.Add(2*time.Second), 1); o.Drop != DropBlackout {
		t.Errorf("in the blackout: %v, want blackout", o.Drop)
	}
	if l.loss.state != good {
		t.Errorf("the blackout stepped the loss chain")
	}
	if o := l.Decide(epoch.Add(3*time.Second), 1); o.Drop != DropLoss {
		t.Errorf("after the blackout: %v, want loss", o.Drop)
	}
}
