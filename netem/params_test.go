package netem

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestParamsValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		p    Params
		want error
	}{
		{"zero", Params{}, nil},
		{"everything", Params{Loss: 0.1, Burst: 2, Delay: time.Second, Jitter: 2 * time.Second, Reorder: 1, ReorderDelay: time.Millisecond, Dup: 1, Rate: 1, Queue: 1, Blackout: Blackout{5 * time.Second, 2 * time.Second}}, nil},
		{"loss 0", Params{Loss: 0}, nil},
		{"loss 1", Params{Loss: 1}, nil},
		{"loss 1 any burst", Params{Loss: 1, Burst: 3}, nil},
		{"loss NaN", Params{Loss: nan}, ErrLoss},
		{"loss negative", Params{Loss: -0.01}, ErrLoss},
		{"loss above 1", Params{Loss: 1.01}, ErrLoss},
		{"loss +Inf", Params{Loss: inf}, ErrLoss},
		{"burst 0", Params{Loss: 0.5, Burst: 0}, nil},
		{"burst 1", Params{Loss: 0.5, Burst: 1}, nil},
		{"burst below 1", Params{Burst: 0.5}, ErrBurst},
		{"burst negative", Params{Burst: -1}, ErrBurst},
		{"burst NaN", Params{Burst: nan}, ErrBurst},
		{"burst +Inf", Params{Burst: inf}, ErrBurst},
		// P(good→bad) = loss/(burst·(1−loss)): 1 exactly at loss = burst/(burst+1).
		{"burst 2 at the limit", Params{Loss: 2.0 / 3, Burst: 2}, nil},
		{"burst 2 past the limit", Params{Loss: 0.67, Burst: 2}, ErrBurstShort},
		{"burst 1 ignores the limit", Params{Loss: 0.99, Burst: 1}, nil},
		{"delay negative", Params{Delay: -1}, ErrDelay},
		{"jitter negative", Params{Jitter: -1}, ErrJitter},
		{"jitter above delay", Params{Delay: 1, Jitter: time.Second}, nil},
		{"reorder NaN", Params{Reorder: nan}, ErrReorder},
		{"reorder above 1", Params{Reorder: 2}, ErrReorder},
		{"reorder negative", Params{Reorder: -1}, ErrReorder},
		{"reorder delay negative", Params{ReorderDelay: -time.Millisecond}, ErrReorderDelay},
		{"dup NaN", Params{Dup: nan}, ErrDup},
		{"dup above 1", Params{Dup: 1.5}, ErrDup},
		{"dup negative", Params{Dup: -0.5}, ErrDup},
		{"rate negative", Params{Rate: -1}, ErrRate},
		{"queue negative", Params{Queue: -1}, ErrQueue},
		{"blackout FOR = EVERY", Params{Blackout: Blackout{time.Second, time.Second}}, ErrBlackout},
		{"blackout FOR > EVERY", Params{Blackout: Blackout{time.Second, 2 * time.Second}}, ErrBlackout},
		{"blackout FOR 0", Params{Blackout: Blackout{time.Second, 0}}, ErrBlackout},
		{"blackout EVERY 0", Params{Blackout: Blackout{0, time.Second}}, ErrBlackout},
		{"blackout negative", Params{Blackout: Blackout{-2 * time.Second, -time.Second}}, ErrBlackout},
		{"blackout just short", Params{Blackout: Blackout{time.Second, time.Second - 1}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.p.Validate(); !errors.Is(err, tt.want) {
				t.Errorf("Validate() = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestParamsNone(t *testing.T) {
	tests := []struct {
		name string
		p    Params
		want bool
	}{
		{"zero", Params{}, true},
		{"only defaults spelled out", Params{Burst: 3, ReorderDelay: time.Second, Queue: 1}, true},
		{"loss", Params{Loss: 0.01}, false},
		{"delay", Params{Delay: 1}, false},
		{"jitter alone", Params{Jitter: 1}, false},
		{"reorder", Params{Reorder: 0.1}, false},
		{"dup", Params{Dup: 0.1}, false},
		{"rate", Params{Rate: 1}, false},
		{"blackout", Params{Blackout: Blackout{2, 1}}, false},
	}
	for _, tt := range tests {
		if got := tt.p.None(); got != tt.want {
			t.Errorf("%s: None() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParamsString(t *testing.T) {
	tests := []struct {
		p    Params
		want string
	}{
		{Params{}, "none"},
		{Params{Loss: 0.02, Burst: 3, Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond, Rate: 1.5e6},
			"loss 2% in bursts of 3, delay 100ms ± 30ms, rate 1.5 Mbit/s, queue 64 KiB"},
		{Params{Loss: 0.2, Burst: 1}, "loss 20%"},
		{Params{Loss: 1.0 / 3}, "loss 33.33%"},
		{Params{Jitter: time.Millisecond}, "delay 0s ± 1ms"},
		{Params{Reorder: 0.05}, "reorder 5% by 20ms"},
		{Params{Reorder: 0.05, ReorderDelay: time.Second}, "reorder 5% by 1s"},
		{Params{Dup: 0.001}, "dup 0.1%"},
		{Params{Rate: 999, Queue: 1500}, "rate 999 bit/s, queue 1500 B"},
		{Params{Rate: 256e3, Queue: 1536}, "rate 256 kbit/s, queue 1.5 KiB"},
		{Params{Rate: 1234567, Queue: 100000}, "rate 1234.567 kbit/s, queue 100000 B"},
		{Params{Rate: 1e9, Queue: 2 << 20}, "rate 1 Gbit/s, queue 2 MiB"},
		{Params{Rate: 1e12}, "rate 1000 Gbit/s, queue 64 KiB"},
		{Params{Blackout: Blackout{5 * time.Second, 2 * time.Second}}, "blackout 2s every 5s"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() =\n%q, want\n%q", tt.p, got, tt.want)
		}
	}
}

func TestDropReasonString(t *testing.T) {
	tests := []struct {
		r    DropReason
		want string
	}{
		{NotDropped, ""}, {DropLoss, "loss"}, {DropBlackout, "blackout"}, {DropQueue, "queue full"}, {DropQueue + 1, "unknown"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("DropReason(%d).String() = %q, want %q", tt.r, got, tt.want)
		}
	}
}
