package rtypefuzz

import (
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

// amplified makes the finding of the stray socket's answer a: its
// reproducer is the stray datagrams last sent, from an address without a
// connection, not the fuzz session's datagrams (§12); shrinking keeps the
// one answered. Its capture is the fuzz session's opening, which shows the
// server's address answering a Hello, then the stray datagrams and a, at
// their times.
func (r *serverRole) amplified(a Datagram) *Finding {
	f := &Finding{Oracle: Amplification, Last: r.last.list(),
		Detail: "an answer to a datagram from an address without a connection: " + answerKind(a.Bytes, wiredump.Packet)}
	if r.stray == nil || r.strayed.n == 0 {
		return f
	}
	f.Sent = r.strayed.list()
	if r.fuzz != nil {
		f.Capture = opening(r.fuzz.tr.capture(r.stray.start))
	}
	f.Capture = inOrder(append(append(f.Capture, f.Sent...), a))
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
