package bot

import (
	"testing"
	"time"
)

func TestRound(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"},
		{450 * time.Nanosecond, "450ns"},
		{1234 * time.Nanosecond, "1.23µs"},
		{231087 * time.Nanosecond, "231µs"},
		{999600 * time.Nanosecond, "1ms"},
		{1144900 * time.Nanosecond, "1.14ms"},
		{1145000 * time.Nanosecond, "1.15ms"},
		{12345678 * time.Nanosecond, "12.3ms"},
		{123456789 * time.Nanosecond, "123ms"},
		{1234567890 * time.Nanosecond, "1.23s"},
		{-231087 * time.Nanosecond, "-231µs"},
		{100 * time.Hour, "100h0m0s"},
	}
	for _, tc := range tests {
		if got := Round(tc.in).String(); got != tc.want {
			t.Errorf("Round(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
	// Nothing overflows at the ends of the range.
	for _, d := range []time.Duration{1<<63 - 1, -1 << 63} {
		if got := Round(d); (got < 0) != (d < 0) {
			t.Errorf("Round(%d) = %d: the sign changed", d, got)
		}
	}
}
