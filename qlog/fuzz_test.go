package qlog_test

import (
	"bytes"
	"testing"

	"github.com/rtypeproto/rtype/qlog"
)

// FuzzReader reads any bytes as a trace: it never panics, and ends in
// io.EOF or an error within as many events as there are bytes. Seeded
// with a whole trace and its pieces.
func FuzzReader(f *testing.F) {
	ev := "\x1e{\"time\":1.5,\"name\":\"rtype:packet_lost\",\"data\":{\"sequence\":3}}\n"
	for _, s := range []string{header + ev + ev, header, ev, header[:40], "\x1e\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := qlog.NewReader(bytes.NewReader(b))
		if err != nil {
			return
		}
		for range len(b) + 1 {
			if _, err := r.Next(); err != nil {
				return
			}
		}
		t.Fatal("more events than bytes")
	})
}
