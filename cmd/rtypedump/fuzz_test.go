package main

import "testing"

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
