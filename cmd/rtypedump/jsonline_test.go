package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// appendJSON writes every value as json.Marshal does, byte for byte: the
// escapes of strings, the forms of numbers, nested and empty objects, and
// values of other types.
func TestAppendJSON(t *testing.T) {
	values := []any{
		"", "plain", `quote " and \ backslash`, "<html> & more", "tab\tnewline\n\x01", "§5.4 é",
		"\u2028\u2029", "bad \xff utf-8", "del \x7f",
		true, false, 0, -42, 1 << 40, uint8(255), uint16(65535), uint32(math.MaxUint32),
		0.0, math.Copysign(0, -1), 1.5, -2047.75, 8191.75, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125,
		math.Pi, 5e-324, math.MaxFloat64, float32(1.1), int64(-7), []string{"Up", "Shoot"}, nil,
		rawJSON("123"), rawJSON(" 4 "), rawJSON("-5"), rawJSON(`"<a>"`), rawJSON(""), rawJSON("12x"),
		wiredump.Object(nil), wiredump.Object{}, []wiredump.Object(nil), []wiredump.Object{},
		wiredump.Object{}.Add("a", 1).Add("b<", wiredump.Object{}.Add("c", []wiredump.Object{wiredump.Object{}.Add("d", 2.5)})),
	}
	for _, v := range values {
		want, werr := json.Marshal(v)
		got, gerr := appendJSON([]byte("x"), v)
		if diff := cmp.Diff("x"+string(want), string(got)); diff != "" || (werr == nil) != (gerr == nil) {
			t.Errorf("%#v: errors %v, %v (-json.Marshal +appendJSON):\n%s", v, werr, gerr, diff)
		}
	}
	for _, v := range []any{math.NaN(), math.Inf(1), wiredump.Object{}.Add("x", math.Inf(-1))} {
		if _, err := appendJSON(nil, v); err == nil {
			t.Errorf("%v: no error; json.Marshal refuses it", v)
		}
	}
}

// rawJSON is a json.Marshaler writing itself as it is.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }
