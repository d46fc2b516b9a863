package netem

import (
	"errors"
	"strings"
	"time"
)

// Errors of ParseRate, ParseSize and ParseBlackout.
var (
	ErrSyntax   = errors.New("netem: not a number: want digits, an optional fraction and suffix, like 1.5M")
	ErrSuffix   = errors.New("netem: unknown suffix: want k, M (or G for a rate)")
	ErrRange    = errors.New("netem: value too large")
	ErrFraction = errors.New("netem: not a whole number of bits or bytes") // or over 19 decimals
	ErrSchedule = errors.New("netem: blackout is not EVERY/FOR durations, like 5s/2s")
)

// ParseRate reads a rate in bits per second with an optional suffix k (10³),
// M (10⁶) or G (10⁹): "256k", "1.5M", "0" (no cap).
func ParseRate(s string) (int64, error) { return rateScale.parse(s) }

// ParseSize reads a size in bytes with an optional suffix k (2¹⁰) or M (2²⁰):
// "64k", "1500".
func ParseSize(s string) (int64, error) { return sizeScale.parse(s) }

// ParseBlackout reads "EVERY/FOR" as two Go durations, "5s/2s": nothing
// passes for FOR at every multiple of EVERY. "0" is no blackout. The
// schedule must satisfy 0 < FOR < EVERY ([ErrBlackout]).
func ParseBlackout(s string) (Blackout, error) {
	if s == "0" {
		return Blackout{}, nil
	}
	every, forStr, ok := strings.Cut(s, "/")
	if !ok {
		return Blackout{}, ErrSchedule
	}
	e, err1 := time.ParseDuration(every)
	f, err2 := time.ParseDuration(forStr)
	if err1 != nil || err2 != nil {
		return Blackout{}, ErrSchedule
	}
	b := Blackout{Every: e, For: f}
	if err := b.validate(); err != nil {
		return Blackout{}, err
	}
	return b, nil
}
