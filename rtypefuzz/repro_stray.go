package rtypefuzz

import (
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// amplified makes the finding of the stray socket's answer a: its
// reproducer is the stray datagram answered, sent from an address without
// a connection, not the fuzz session's datagrams (§12); its capture the
// fuzz session's opening, which shows the server's address answering a
// Hello, then the stray datagram and a, when a was read.
func (r *run) amplified(a Datagram) *Finding {
	f := &Finding{Oracle: Amplification, Last: r.last,
		Detail: "an answer to a datagram from an address without a connection: " + answerKind(a.Bytes, wiredump.Packet)}
	if r.stray == nil || len(r.stray.sent) == 0 {
		return f
	}
	sent := r.stray.sent[len(r.stray.sent)-1]
	sent.At = 0
	f.Sent = []Datagram{sent}
	if r.fuzz != nil {
		f.Capture = opening(r.fuzz.tr.capture(r.fuzz.tr.zero))
	}
	now := time.Duration(0)
	if r.fuzz != nil {
		now = time.Since(r.fuzz.tr.zero)
	}
	sent.At, a.At = now, now
	f.Capture = append(f.Capture, sent, a)
	return f
}

// opening returns the opening of a session's capture: up to the first
// datagram sent after a valid Welcome received (§4.3), the one that opens
// the connection; all of it when there is none.
func opening(capture []Datagram) []Datagram {
	welcomed := false
	for i, d := range capture {
		if welcomed && d.Out {
			return capture[:i+1]
		}
		if t, _, err := rtype.ParseHandshake(d.Bytes); !d.Out && err == nil && t == rtype.HandshakeWelcome {
			welcomed = true
		}
	}
	return capture
}
