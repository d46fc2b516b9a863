package main

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/rtypeproto/rtype/internal/wiredump"
)

// appendJSON appends v as json.Marshal writes it. The values a decoded
// datagram's Object holds are written directly: through json.Marshal,
// reflection and a second pass over each Marshaler's output made -json
// cost more than the decoding. Any other value goes to json.Marshal.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case wiredump.Object:
		b = append(b, '{')
		for i, f := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendJSONString(b, f.Key), ':')
			var err error
			if b, err = appendJSON(b, f.Value); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case []wiredump.Object:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, o := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, o); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case string:
		return appendJSONString(b, v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case uint8:
		return strconv.AppendUint(b, uint64(v), 10), nil
	case uint16:
		return strconv.AppendUint(b, uint64(v), 10), nil
	case uint32:
		return strconv.AppendUint(b, uint64(v), 10), nil
	case float64:
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			return appendJSONFloat(b, v), nil
		}
	case json.Marshaler:
		// The ids and bit sets wiredump writes in hex as text write
		// decimal digits, which json.Marshal would copy as they are.
		if j, err := v.MarshalJSON(); err == nil && allDigits(j) {
			return append(b, j...), nil
		}
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}

// appendJSONString appends s quoted. Only printable ASCII that JSON and
// json.Marshal's HTML escaping leave alone is copied as is.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONFloat appends a finite f as json.Marshal does: as an ES6
// number, the exponent from 1e21 and under 1e-6, without padding.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// allDigits reports whether b is a non-empty run of decimal digits.
func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
