package session

import (
	"bytes"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// A server's Log tells its operator who joined and left, and sums the
// drops of each rule (§12) over DropLogEvery: a flood of bad datagrams is
// one record a period, not one each.
func TestServer_12_LogsJoinsLeavesAndDrops(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	s, cp := newServer(ServerConfig{Log: log})
	s.Tick(t0) // the first period starts
	id := connect(t, s, cp, addrA, t0)
	for range 500 {
		s.Receive(make([]byte, 600), addrB, t0) // over 548 bytes (§2.2)
	}
	s.Receive([]byte{1, 2, 3}, addrB, t0)
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 2}), addrA, t0.Add(DropLogEvery/2)) // alive (§13.3)
	s.Tick(t0.Add(DropLogEvery - time.Millisecond))                                                        // not yet
	s.Tick(t0.Add(DropLogEvery))
	s.Receive(make([]byte, 600), addrB, t0.Add(DropLogEvery))
	s.Tick(t0.Add(DropLogEvery + time.Second)) // the next period has not passed
	s.Receive(packet(t, rtype.PacketHeader{ConnectionID: id, Sequence: 3}, rtype.Disconnect{Reason: rtype.DisconnectClientQuit}), addrA, t0.Add(DropLogEvery+time.Second))
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"level=INFO msg=\"player joined\" conn=" + strconv.Itoa(int(id)) + " slot=0 addr=" + addrA.String(),
		"level=WARN msg=dropped rule=datagram-too-large count=500 period=10s",
		"level=WARN msg=dropped rule=short-handshake count=1 period=10s",
		"level=INFO msg=\"player left\" conn=" + strconv.Itoa(int(id)) + " slot=0 addr=" + addrA.String() + " close=Disconnect reason=ClientQuit",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}
