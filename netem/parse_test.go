package netem

import (
	"errors"
	"math"
	"testing"
	"time"
)

// parseCase is one input of ParseRate or ParseSize and its expected result.
type parseCase struct {
	in   string
	want int64
	err  error
}

func TestParseRate(t *testing.T) {
	testParse(t, ParseRate, []parseCase{
		{"0", 0, nil},
		{"1", 1, nil},
		{"256k", 256e3, nil},
		{"1.5M", 1.5e6, nil},
		{"1.5G", 1.5e9, nil},
		{"0.001k", 1, nil},
		{"1.000000000G", 1e9, nil},
		{"1.0k", 1000, nil},
		{"007", 7, nil},
		{"9223372036854775807", math.MaxInt64, nil},
		{"9223372036.854775807G", math.MaxInt64, nil},
		{"9223372036854775808", 0, ErrRange},
		{"9223372036854775.808k", 0, ErrRange},
		{"99999999999999999999", 0, ErrRange},
		{"18446744073709551616G", 0, ErrRange},
		{"10000000000G", 0, ErrRange},
		{"0.0001k", 0, ErrFraction},
		{"1.5", 0, ErrFraction},
		{"0.12345678901234567891k", 0, ErrFraction},
		{"", 0, ErrSyntax},
		{"k", 0, ErrSyntax},
		{"fast", 0, ErrSyntax},
		{"1fast", 0, ErrSuffix},
		{"-1", 0, ErrSyntax},
		{"+1", 0, ErrSyntax},
		{".5M", 0, ErrSyntax},
		{"5.", 0, ErrSyntax},
		{"5.M", 0, ErrSyntax},
		{"1.2.3", 0, ErrSyntax},
		{"1e6", 0, ErrSyntax},
		{" 1", 0, ErrSyntax},
		{"1_000", 0, ErrSyntax},
		{"1K", 0, ErrSuffix},
		{"1m", 0, ErrSuffix},
		{"1 k", 0, ErrSuffix},
		{"1kbit/s", 0, ErrSuffix},
		{"1T", 0, ErrSuffix},
	})
}

func TestParseSize(t *testing.T) {
	testParse(t, ParseSize, []parseCase{
		{"0", 0, nil},
		{"1500", 1500, nil},
		{"64k", 64 << 10, nil},
		{"1.5k", 1536, nil},
		{"2M", 2 << 20, nil},
		{"0.5M", 512 << 10, nil},
		{"97.65625k", 100000, nil},
		{"9007199254740991.5k", math.MaxInt64 - 511, nil},
		{"12345678901234567890.1k", 0, ErrRange}, // more digits than 64 bits hold
		{"9223372036854775807", math.MaxInt64, nil},
		{"8796093022208M", 0, ErrRange},
		{"0.1k", 0, ErrFraction},
		{"1.5", 0, ErrFraction},
		{"1G", 0, ErrSuffix},
		{"1K", 0, ErrSuffix},
		{"1KiB", 0, ErrSuffix},
		{"", 0, ErrSyntax},
		{"-64k", 0, ErrSyntax},
		{"0x10", 0, ErrSyntax},
	})
}

func testParse(t *testing.T, parse func(string) (int64, error), tests []parseCase) {
	t.Helper()
	for _, tt := range tests {
		got, err := parse(tt.in)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("parse(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestParseBlackout(t *testing.T) {
	tests := []struct {
		in   string
		want Blackout
		err  error
	}{
		{"5s/2s", Blackout{5 * time.Second, 2 * time.Second}, nil},
		{"1m30s/500ms", Blackout{90 * time.Second, 500 * time.Millisecond}, nil},
		{"1s/999ms", Blackout{time.Second, 999 * time.Millisecond}, nil},
		{"0", Blackout{}, nil},
		{"0/0", Blackout{}, nil},
		{"2s/2s", Blackout{}, ErrBlackout},
		{"2s/3s", Blackout{}, ErrBlackout},
		{"2s/0s", Blackout{}, ErrBlackout},
		{"0s/1s", Blackout{}, ErrBlackout},
		{"-5s/-2s", Blackout{}, ErrBlackout},
		{"5s/-2s", Blackout{}, ErrBlackout},
		{"", Blackout{}, ErrSchedule},
		{"5s", Blackout{}, ErrSchedule},
		{"5/2", Blackout{}, ErrSchedule},
		{"5s/2s/1s", Blackout{}, ErrSchedule},
		{"5s/", Blackout{}, ErrSchedule},
		{"/2s", Blackout{}, ErrSchedule},
		{"none", Blackout{}, ErrSchedule},
		{"999999999h/1s", Blackout{}, ErrSchedule},
	}
	for _, tt := range tests {
		got, err := ParseBlackout(tt.in)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("ParseBlackout(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestBlackoutString(t *testing.T) {
	tests := []struct {
		b    Blackout
		want string
	}{
		{Blackout{}, "0"},
		{Blackout{5 * time.Second, 2 * time.Second}, "5s/2s"},
		{Blackout{90 * time.Second, 1500 * time.Microsecond}, "1m30s/1.5ms"},
	}
	for _, tt := range tests {
		if got := tt.b.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.b, got, tt.want)
		}
	}
}

// fuzzQuantity checks that parse never panics and that what it accepts
// comes back unchanged through the text String writes (number and suffix).
func fuzzQuantity(f *testing.F, sc scale, parse func(string) (int64, error)) {
	for _, s := range []string{"0", "1", "1.5M", "256k", "64k", "9223372036854775807", "0.001k", "1.", "-1", "1e9", "18446744073709551616"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parse(s)
		if err != nil {
			if v != 0 {
				t.Fatalf("parse(%q) = %d with error %v", s, v, err)
			}
			return
		}
		if v < 0 {
			t.Fatalf("parse(%q) = %d < 0", s, v)
		}
		num, u := sc.format(v)
		back, err := parse(num + sc.suffix[u])
		if err != nil || back != v {
			t.Fatalf("parse(%q) = %d, written %q%s, read back %d, %v", s, v, num, sc.suffix[u], back, err)
		}
	})
}

func FuzzParseRate(f *testing.F) { fuzzQuantity(f, rateScale, ParseRate) }

func FuzzParseSize(f *testing.F) { fuzzQuantity(f, sizeScale, ParseSize) }

func FuzzParseBlackout(f *testing.F) {
	for _, s := range []string{"5s/2s", "0", "0/0", "1h/59m59.999999999s", "5s", "-1s/-2s", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBlackout(s)
		if err != nil {
			if b != (Blackout{}) {
				t.Fatalf("ParseBlackout(%q) = %v with error %v", s, b, err)
			}
			return
		}
		if err := b.validate(); err != nil {
			t.Fatalf("ParseBlackout(%q) = %v, which does not validate: %v", s, b, err)
		}
		back, err := ParseBlackout(b.String())
		if err != nil || back != b {
			t.Fatalf("ParseBlackout(%q) = %v, written %q, read back %v, %v", s, b, b.String(), back, err)
		}
	})
}

// TestFormatQuantity pins the number-and-unit split String relies on.
func TestFormatQuantity(t *testing.T) {
	tests := []struct {
		sc   scale
		v    int64
		want string
	}{
		{rateScale, 0, "0 bit/s"},
		{rateScale, 1000, "1 kbit/s"},
		{rateScale, 1001, "1.001 kbit/s"},
		{rateScale, 10001, "10.001 kbit/s"},
		{rateScale, 1000001, "1000.001 kbit/s"},
		{rateScale, 1500000, "1.5 Mbit/s"},
		{rateScale, math.MaxInt64, "9223372036854775.807 kbit/s"},
		{sizeScale, 1023, "1023 B"},
		{sizeScale, 1024, "1 KiB"},
		{sizeScale, 1025, "1025 B"},
		{sizeScale, 1280, "1.25 KiB"},
		{sizeScale, 1 << 20, "1 MiB"},
		{sizeScale, 1<<20 + 512, "1024.5 KiB"},
	}
	for _, tt := range tests {
		num, u := tt.sc.format(tt.v)
		if got := num + " " + tt.sc.name[u]; got != tt.want {
			t.Errorf("format(%d) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
