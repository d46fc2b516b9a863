package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDecode feeds any bytes to both parsers and both outputs: nothing may
// panic (§12), and the JSON must stay valid.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"testdata/handshake.hex", "testdata/framing.hex", "testdata/messages.hex"} {
		for _, d := range hexDatagrams(f, name) {
			f.Add(d)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, k := range []kind{kindHandshake, kindPacket} {
			o := datagramObject(1, nil, decode(k, b))
			out, err := json.Marshal(o)
			if err != nil || !json.Valid(out) {
				t.Fatalf("JSON of %x: %v", b, err)
			}
			var text bytes.Buffer
			if err := (&textPrinter{w: &text}).datagram(o, nil); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzHexLine checks that any line either decodes or fails with a column
// inside the line.
func FuzzHexLine(f *testing.F) {
	f.Add([]byte("52 54 59 50 01 01 # Hello"))
	f.Add([]byte("0x12"))
	f.Fuzz(func(t *testing.T, line []byte) {
		_, col, err := parseHexLine(line)
		if err != nil && (col < 1 || col > len(line)) {
			t.Fatalf("error %v at column %d of a %d-byte line", err, col, len(line))
		}
	})
}
