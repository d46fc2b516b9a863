package rtypefuzz

import (
	"fmt"
	"strings"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// kindOf is the parser a datagram on a socket goes through (§3): the
// handshake's until a Welcome arrived on it.
func kindOf(welcomed bool) wiredump.Kind {
	if welcomed {
		return wiredump.Packet
	}
	return wiredump.Handshake
}

// judge checks a datagram the implementation sent: over 548 bytes
// (§2.2), or one the library's decoder drops whole or in part (§4, §5.3,
// §8); messages of types outside the catalog are ignored, not faults (§6).
func judge(b []byte, k wiredump.Kind) (Oracle, string) {
	if len(b) > rtype.MaxDatagramSize {
		return Oversize, fmt.Sprintf("a %d-byte datagram, over the 548 of §2.2", len(b))
	}
	if _, _, err := rtype.ParseHandshake(b); err == nil {
		return 0, "" // a valid handshake, such as a Welcome sent again (§13.2)
	}
	d := wiredump.Decode(k, b)
	if d.Err != nil {
		return Invalid, fmt.Sprintf("a %s the receiver drops: %v (% x)", k, d.Err, head(b))
	}
	for _, m := range d.Messages {
		if m.Err != nil {
			return Invalid, fmt.Sprintf("a %s message the receiver drops: %v", m.Name(), m.Err)
		}
	}
	return 0, ""
}

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

// head is at most the first 24 bytes of b, for a detail.
func head(b []byte) []byte { return b[:min(len(b), 24)] }
