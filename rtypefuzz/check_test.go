package rtypefuzz

import (
	"net/netip"
	"testing"

	"github.com/rtypeproto/rtype"
)

func packetOf(t *testing.T, seq uint32, msgs ...rtype.Message) []byte {
	t.Helper()
	return packetOfConn(t, 7, seq, msgs...)
}

func packetOfConn(t *testing.T, conn, seq uint32, msgs ...rtype.Message) []byte {
	t.Helper()
	b, _ := rtype.PacketHeader{ConnectionID: conn, Sequence: seq}.AppendBinary(nil)
	for _, m := range msgs {
		var err error
		if b, err = rtype.AppendMessage(b, m); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// A session's monitor finds what a receiver must drop, and what breaks
// the rules of a connection across datagrams, and takes a valid handshake
// (a Welcome sent again, §13.2) for no fault.
func TestWatched(t *testing.T) {
	server := netip.MustParseAddrPort("10.0.0.1:4242")
	local := netip.MustParseAddrPort("10.0.0.2:5000")
	first := func(msgs ...rtype.Message) []byte { return packetOf(t, 1, msgs...) }
	tests := []struct {
		name string
		b    [][]byte
		want Oracle
	}{
		{"a valid packet", [][]byte{first(rtype.Pong{Timestamp: 3})}, 0},
		{"a Welcome again", [][]byte{rtype.AppendWelcome(nil, 7)}, 0},
		{"549 bytes", [][]byte{make([]byte, 549)}, Oversize},
		{"a short packet", [][]byte{make([]byte, 12)}, Invalid},
		{"a bad Pong", [][]byte{first(rtype.RawMessage{Type: rtype.TypePong, Payload: []byte{1}})}, Invalid},
		{"§5.2 a sequence repeated", [][]byte{first(), first(rtype.Pong{Timestamp: 1})}, Invalid},
		{"§5.1 another connection's id", [][]byte{first(), packetOfConn(t, 8, 2)}, Invalid},
	}
	for _, tt := range tests {
		w := newWatched(Server, local, server)
		w.saw(server, local, rtype.AppendWelcome(nil, 7))
		for _, b := range tt.b {
			w.saw(server, local, b)
		}
		if got, why, _ := w.broken(); got != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.name, got, why, tt.want)
		}
	}
}
