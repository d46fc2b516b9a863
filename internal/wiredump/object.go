package wiredump

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Field is one named value of an [Object].
type Field struct {
	// Key is the spec's name of the field (lowerCamelCase, as in its
	// tables), so that the output can be read next to the spec.
	Key string
	// Value is the field's value: a number, string, bool, []Object or
	// Object, or a value with its own JSON and text forms.
	Value any
}

// Object is the JSON form of a decoded datagram, message or Snapshot state:
// its fields in the order of the spec's tables (§4 to §8), which
// encoding/json cannot keep with a map.
type Object []Field

// Add appends a field and returns the object, for chaining.
func (o Object) Add(key string, val any) Object { return append(o, Field{key, val}) }

// Get returns the value of key.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the fields in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Key)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// hex32 is a number that JSON writes in decimal and text in hex, for bit
// sets such as ackBits.
type hex32 uint32

func (h hex32) MarshalJSON() ([]byte, error) { return strconv.AppendUint(nil, uint64(h), 10), nil }
func (h hex32) String() string               { return "0x" + pad(strconv.FormatUint(uint64(h), 16), 8) }

// hex16 is a 16-bit id, such as an archetype, written in hex as text.
type hex16 uint16

func (h hex16) MarshalJSON() ([]byte, error) { return strconv.AppendUint(nil, uint64(h), 10), nil }
func (h hex16) String() string               { return "0x" + pad(strconv.FormatUint(uint64(h), 16), 4) }

// hex8 is an 8-bit id, such as a Snapshot entityType, written in hex as text.
type hex8 uint8

func (h hex8) MarshalJSON() ([]byte, error) { return strconv.AppendUint(nil, uint64(h), 10), nil }
func (h hex8) String() string               { return "0x" + pad(strconv.FormatUint(uint64(h), 16), 2) }

// names is a list of names, a JSON array and "A|B" as text; "0" when empty,
// as the spec writes an Input with nothing held.
type names []string

func (n names) MarshalJSON() ([]byte, error) { return json.Marshal([]string(n)) }
func (n names) String() string {
	if len(n) == 0 {
		return "0"
	}
	return strings.Join(n, "|")
}

// hexBytes is raw bytes, a hex string in both outputs.
type hexBytes []byte

func (h hexBytes) MarshalJSON() ([]byte, error) { return json.Marshal(h.String()) }
func (h hexBytes) String() string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(h))
	for _, c := range h {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}
