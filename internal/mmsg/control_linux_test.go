//go:build linux && (amd64 || arm64)

package mmsg

import "testing"

// Control data of any shape is read within its bounds.
func FuzzControl(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add([]byte{20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 35, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) { control(b) })
}
