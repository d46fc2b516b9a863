package rtypefuzz

import (
	"strings"

	"github.com/rtypeproto/rtype/internal/wiredump"
)

// answerKind names an answer for a finding's detail: its handshake type,
// or its message types.
func answerKind(b []byte, k wiredump.Kind) string {
	d := wiredump.Decode(k, b)
	switch {
	case d.Err != nil:
		return "invalid"
	case k == wiredump.Handshake:
		return d.Handshake.String()
	case len(d.Messages) == 0:
		return "empty"
	}
	names := make([]string, 0, len(d.Messages))
	for _, m := range d.Messages {
		names = append(names, m.Name())
	}
	return strings.Join(names, "+")
}
