package rtypefuzz

import (
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
)

func packetOf(t *testing.T, msgs ...rtype.Message) []byte {
	t.Helper()
	b, _ := rtype.PacketHeader{ConnectionID: 7, Sequence: 2}.AppendBinary(nil)
	for _, m := range msgs {
		var err error
		if b, err = rtype.AppendMessage(b, m); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// judge finds what a receiver must drop, and takes a valid handshake (a
// Welcome sent again, §13.2) for no fault.
func TestJudge(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		want Oracle
	}{
		{"a valid packet", packetOf(t, rtype.Pong{Timestamp: 3}), 0},
		{"a Welcome again", rtype.AppendWelcome(nil, 9), 0},
		{"549 bytes", make([]byte, 549), Oversize},
		{"a short packet", make([]byte, 12), Invalid},
		{"a bad Pong", packetOf(t, rtype.RawMessage{Type: rtype.TypePong, Payload: []byte{1}}), Invalid},
	}
	for _, tt := range tests {
		if got, why := judge(tt.b, wiredump.Packet); got != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.name, got, why, tt.want)
		}
	}
}
