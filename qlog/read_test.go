package qlog_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/rtypeproto/rtype/qlog"
)

const header = "\x1e" + `{"file_schema":"urn:ietf:params:qlog:file:sequential","serialization_format":"application/qlog+json-seq","trace":{"vantage_point":{"type":"client"},"common_fields":{"reference_time":{"clock_type":"system","epoch":"2026-12-01T10:00:00Z"},"group_id":"192.0.2.1:4242"}}}` + "\n"

// The reader reads a trace as far as it is well formed, and names the
// first record that is not.
func TestReader_Errors(t *testing.T) {
	ev := func(ms string) string {
		return "\x1e{\"time\":" + ms + ",\"name\":\"rtype:packet_lost\",\"data\":{\"sequence\":3}}\n"
	}
	tests := []struct {
		name, trace string
		events      int
		err         error // nil: io.EOF after the events
	}{
		{"whole", header + ev("0") + ev("1.5"), 2, nil},
		{"empty", "", 0, qlog.ErrFraming},
		{"no header", ev("0"), 0, qlog.ErrHeader},
		{"cut in a record", header + ev("0") + ev("1")[:20], 1, qlog.ErrFraming},
		{"no RS", header + strings.TrimPrefix(ev("0"), "\x1e"), 0, qlog.ErrFraming},
		{"time back", header + ev("2") + ev("1"), 1, qlog.ErrTimeBack},
		{"no name", header + "\x1e{\"time\":1}\n", 0, qlog.ErrEvent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := qlog.NewReader(strings.NewReader(tc.trace))
			n := 0
			for err == nil {
				if _, err = r.Next(); err == nil {
					n++
				}
			}
			want := tc.err
			if want == nil {
				want = io.EOF
			}
			if !errors.Is(err, want) || n != tc.events {
				t.Errorf("%d events, then %v; want %d, then %v", n, err, tc.events, want)
			}
		})
	}
}
