package netem

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// A scale is a family of unit suffixes: "k" is 1000 bits for a rate but
// 1024 bytes for a size.
type scale struct {
	suffix []string // "", "k", "M", …: what ParseRate and ParseSize read
	name   []string // "bit/s", "kbit/s", …: what String writes
	base   uint64   // 1000 or 1024
}

var (
	rateScale = scale{[]string{"", "k", "M", "G"}, []string{"bit/s", "kbit/s", "Mbit/s", "Gbit/s"}, 1000}
	sizeScale = scale{[]string{"", "k", "M"}, []string{"B", "KiB", "MiB"}, 1024}
)

// maxFrac bounds the significant fraction digits, so 10^digits fits a uint64.
const maxFrac = 19

// parse reads a decimal number with an optional suffix of sc, exactly: the
// value must come out a whole number of units, and is computed in 128 bits
// so nothing rounds or overflows silently.
func (sc scale) parse(s string) (int64, error) {
	num, suf := splitSuffix(s)
	if num == "" {
		return 0, ErrSyntax
	}
	mult, ok := sc.multiplier(suf)
	if !ok {
		return 0, ErrSuffix
	}
	mant, frac, err := mantissa(num)
	if err != nil {
		return 0, err
	}
	pow := pow10(frac)
	hi, lo := bits.Mul64(mant, mult)
	if hi >= pow {
		return 0, ErrRange
	}
	q, rem := bits.Div64(hi, lo, pow)
	switch {
	case rem != 0:
		return 0, ErrFraction
	case q > math.MaxInt64:
		return 0, ErrRange
	}
	return int64(q), nil
}

// splitSuffix cuts s after its last digit or point.
func splitSuffix(s string) (num, suf string) {
	i := len(s)
	for i > 0 && s[i-1] != '.' && (s[i-1] < '0' || s[i-1] > '9') {
		i--
	}
	return s[:i], s[i:]
}

// multiplier is the value of one suf.
func (sc scale) multiplier(suf string) (uint64, bool) {
	m := uint64(1)
	for _, s := range sc.suffix {
		if s == suf {
			return m, true
		}
		m *= sc.base
	}
	return 0, false
}

// mantissa reads "123" or "1.25" as its digits without the point (125) and
// the number of digits after it (2), trailing zeros of the fraction dropped.
func mantissa(num string) (mant uint64, frac int, err error) {
	intPart, fracPart, dot := strings.Cut(num, ".")
	if intPart == "" || (dot && fracPart == "") {
		return 0, 0, ErrSyntax
	}
	fracPart = strings.TrimRight(fracPart, "0")
	if len(fracPart) > maxFrac {
		return 0, 0, ErrFraction
	}
	for _, part := range [2]string{intPart, fracPart} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, 0, ErrSyntax
			}
			d := uint64(part[i] - '0')
			if mant > (math.MaxUint64-d)/10 {
				return 0, 0, ErrRange
			}
			mant = mant*10 + d
		}
	}
	return mant, len(fracPart), nil
}

// pow10 is 10^n for 0 ≤ n ≤ maxFrac.
func pow10(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// format writes v as a number and a unit index into sc: the largest unit
// that leaves at most three decimals, so the text is short and exact.
func (sc scale) format(v int64) (num string, unit int) {
	u := uint64(v)
	if v < 0 {
		return strconv.FormatInt(v, 10), 0
	}
	mult := uint64(1)
	for i := 1; i < len(sc.suffix); i++ {
		mult *= sc.base
		if u < mult {
			break
		}
		if n, ok := decimal(u, mult, 3); ok {
			num, unit = n, i
		}
	}
	if num == "" {
		num = strconv.FormatUint(u, 10)
	}
	return num, unit
}

// decimal writes u/mult in decimals if that takes at most maxDigits after
// the point.
func decimal(u, mult uint64, maxDigits int) (string, bool) {
	whole, rem := u/mult, u%mult
	s := strconv.FormatUint(whole, 10)
	if rem == 0 {
		return s, true
	}
	s += "."
	for range maxDigits {
		rem *= 10 // < 10·mult: mult is at most 2³⁰, no overflow
		s += string(rune('0' + rem/mult))
		rem %= mult
		if rem == 0 {
			return s, true
		}
	}
	return "", false
}

// rateText is a rate for people: "1.5 Mbit/s".
func rateText(bps int64) string {
	num, u := rateScale.format(bps)
	return num + " " + rateScale.name[u]
}

// sizeText is a size for people: "64 KiB".
func sizeText(n int64) string {
	num, u := sizeScale.format(n)
	return num + " " + sizeScale.name[u]
}
