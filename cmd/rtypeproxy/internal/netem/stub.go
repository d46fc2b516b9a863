// Package netem is a placeholder of the impairment model: every datagram
// passes at once.
package netem

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Params are the impairments of one direction.
type Params struct {
	Loss         float64
	Burst        float64
	Delay        time.Duration
	Jitter       time.Duration
	Reorder      float64
	ReorderDelay time.Duration
	Dup          float64
	Rate         int64
	Queue        int64
	Blackout     Blackout
}

// Blackout is a schedule of outages.
type Blackout struct{ Every, For time.Duration }

// ErrSyntax is a value that does not parse.
var ErrSyntax = errors.New("bad syntax")

// ParseBlackout parses EVERY/FOR.
func ParseBlackout(s string) (Blackout, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return Blackout{}, ErrSyntax
	}
	e, err1 := time.ParseDuration(a)
	f, err2 := time.ParseDuration(b)
	if err1 != nil || err2 != nil {
		return Blackout{}, ErrSyntax
	}
	return Blackout{e, f}, nil
}

// ParseRate parses bits per second.
func ParseRate(s string) (int64, error) { return parseSuffixed(s, 1000) }

// ParseSize parses bytes.
func ParseSize(s string) (int64, error) { return parseSuffixed(s, 1024) }

func parseSuffixed(s string, unit float64) (int64, error) {
	m := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		m, s = unit, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		m, s = unit*unit, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		m, s = unit*unit*unit, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, ErrSyntax
	}
	return int64(v * m), nil
}

// Validate checks ranges.
func (p Params) Validate() error {
	if p.Loss < 0 || p.Loss > 1 || p.Dup < 0 || p.Dup > 1 || p.Reorder < 0 || p.Reorder > 1 {
		return ErrSyntax
	}
	return nil
}

// None reports no impairment.
func (p Params) None() bool { return p == Params{} }

// String describes p.
func (p Params) String() string {
	if p.None() {
		return "none"
	}
	return fmt.Sprintf("loss %g%%, delay %v ± %v", p.Loss*100, p.Delay, p.Jitter)
}

// Profile is a named pair of Params.
type Profile struct {
	Name, About string
	Up, Down    Params
}

// Profiles lists the profiles.
func Profiles() []Profile {
	return []Profile{
		{Name: "lan", About: "a wired LAN", Up: Params{Delay: time.Millisecond}, Down: Params{Delay: time.Millisecond}},
		{Name: "wifi", About: "home Wi-Fi", Up: Params{Loss: 0.01, Delay: 3 * time.Millisecond}, Down: Params{Loss: 0.01, Delay: 3 * time.Millisecond}},
		{Name: "dsl", About: "DSL", Up: Params{Delay: 15 * time.Millisecond}, Down: Params{Delay: 15 * time.Millisecond}},
		{Name: "3g", About: "3G mobile", Up: Params{Loss: 0.02, Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond}, Down: Params{Loss: 0.02, Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond}},
		{Name: "lossy", About: "a lossy path", Up: Params{Loss: 0.1}, Down: Params{Loss: 0.1}},
	}
}

// LookupProfile finds a profile by name.
func LookupProfile(name string) (Profile, bool) {
	for _, p := range Profiles() {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// DropReason says why a datagram was not forwarded.
type DropReason uint8

// Drop reasons.
const (
	NotDropped DropReason = iota
	DropLoss
	DropBlackout
	DropQueue
)

// String names the reason.
func (r DropReason) String() string {
	return [...]string{"", "loss", "blackout", "queue full"}[r]
}

// Outcome is what the link does with one datagram.
type Outcome struct {
	Drop      DropReason
	Wait      time.Duration
	Dup       bool
	DupWait   time.Duration
	Reordered bool
}

// Link is one direction of one client's path.
type Link struct{ p Params }

// NewLink returns a Link.
func NewLink(p Params, start time.Time, seed uint64) *Link { return &Link{p: p} }

// Decide forwards at once.
func (l *Link) Decide(now time.Time, size int) Outcome { return Outcome{} }

// Seed mixes a seed for one client direction.
func Seed(base uint64, client int, up bool) uint64 {
	s := base*0x9e3779b97f4a7c15 + uint64(client)*2
	if up {
		s++
	}
	return s
}
