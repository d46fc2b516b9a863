package conformance

import (
	"context"
	"encoding/binary"
	"net"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// crashClientEnv, when set, makes the test binary a small client of the
// server at its first argument, which keeps the rules the crash tests run
// but ends with that status on a Snapshot whose entityCount is over 47,
// as a client whose parser throws would; "any" makes it exit 3 on any
// Snapshot.
const crashClientEnv = "RTYPE_CONFORMANCE_TEST_CRASH_STATUS"

func TestMain(m *testing.M) {
	if status := os.Getenv(crashClientEnv); status != "" {
		code, _ := strconv.Atoi(status)
		crashClient(os.Args[1], code, status == "any")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashClient says Hello every second until Welcome (gives up on Rejected
// or after 10 s), then sends a packet a frame, acked as §5.1 says, and
// queries each unknown id a valid Snapshot lists once, until SIGINT or
// 20 s; a Snapshot with entityCount over 47, any one if anySnapshot, makes
// it exit with code, 3 if anySnapshot.
func crashClient(server string, code int, anySnapshot bool) {
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, os.Interrupt)
	c, err := net.Dial("udp", server)
	if err != nil {
		return
	}
	defer c.Close()
	var id uint32
	buf := make([]byte, 2048)
	for end := time.Now().Add(10 * time.Second); id == 0 && time.Now().Before(end); {
		c.Write(rtype.AppendHello(nil))
		c.SetReadDeadline(time.Now().Add(time.Second))
		n, err := c.Read(buf)
		if err != nil {
			continue
		}
		switch typ, cid, err := rtype.ParseHandshake(buf[:n]); {
		case err != nil:
		case typ == rtype.HandshakeRejected:
			return
		case typ == rtype.HandshakeWelcome:
			id = cid
		}
	}
	if id == 0 {
		return
	}
	var win rtype.SeqWindow
	asked := map[uint32]bool{}
	var queries []uint32
	snapshot := func(p []byte) {
		if len(p) < rtype.SnapshotHeaderSize {
			return
		}
		count := int(binary.BigEndian.Uint16(p[4:]))
		switch {
		case anySnapshot:
			os.Exit(3)
		case count > rtype.MaxSnapshotStates:
			os.Exit(code)
		}
		if len(p) != rtype.SnapshotHeaderSize+rtype.EntityStateSize*count {
			return
		}
		var ids []uint32
		seen := map[uint32]bool{}
		for i := range count {
			nid := binary.BigEndian.Uint32(p[rtype.SnapshotHeaderSize+rtype.EntityStateSize*i:])
			if nid == 0 || seen[nid] {
				return
			}
			seen[nid] = true
			ids = append(ids, nid)
		}
		for _, nid := range ids {
			if !asked[nid] && len(asked) < 1024 {
				asked[nid] = true
				queries = append(queries, nid)
			}
		}
	}
	seq := uint32(0)
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
		select {
		case <-quit:
			return
		default:
		}
		c.SetReadDeadline(time.Now().Add(time.Second / 60))
		if n, err := c.Read(buf); err == nil {
			pk, err := rtype.ParsePacket(buf[:n])
			if err == nil && pk.Header().ConnectionID == id && win.Receive(pk.Header().Sequence).Accept() {
				for m := range pk.Messages() {
					if m.Type == rtype.TypeSnapshot {
						snapshot(m.Payload)
					}
				}
			}
			continue
		}
		seq++
		ack, bits := win.Ack()
		b, _ := rtype.PacketHeader{ConnectionID: id, Sequence: seq, Ack: ack, AckBits: bits}.AppendBinary(nil)
		for _, q := range queries {
			b, _ = rtype.AppendMessage(b, rtype.QueryEntity{NetworkID: q})
		}
		queries = queries[:0]
		c.Write(b)
	}
}

// TestClientCrash runs, with a real process a case at a time, a client
// that exits with status 2 on a Snapshot of 48 states: 8.1/1 fails, saying
// so, and the next case's fresh client passes 8.1/2. The same client
// exiting 0 on Rejected passes 4.4/1: status 0 is the client's choice.
func TestClientCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes and waits on loopback UDP")
	}
	t.Setenv(crashClientEnv, "2")
	o := Options{Run: regexp.MustCompile(`^(4\.4/1|8\.1/1|8\.1/2)$`)}
	rep, err := RunClient(context.Background(), Command(nil, os.Args[0], "{addr}"), o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"4.4/1": Pass, "8.1/1": Fail, "8.1/2": Pass}
	for _, r := range rep.Results {
		if r.Outcome != want[r.Case.ID] {
			t.Errorf("%s: %s, want %s: %s", r.Case.ID, r.Outcome, want[r.Case.ID], r.Detail)
		}
		if r.Case.ID == "8.1/1" && !strings.Contains(r.Detail, "the client exited with status 2 at ") {
			t.Errorf("8.1/1's detail does not say the client crashed: %s", r.Detail)
		}
		t.Logf("%s %s: %s", r.Case.ID, r.Outcome, r.Detail)
	}
	if len(rep.Results) != len(want) {
		t.Errorf("%d results, want %d", len(rep.Results), len(want))
	}
}

// TestClientLeaves: the same client exiting 0 on the Snapshot of 48
// states did not crash, but did not drop the Snapshot and go on either:
// 8.1/1 fails, saying it left.
func TestClientLeaves(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real process and waits on loopback UDP")
	}
	t.Setenv(crashClientEnv, "0")
	o := Options{Run: regexp.MustCompile(`^8\.1/1$`)}
	rep, err := RunClient(context.Background(), Command(nil, os.Args[0], "{addr}"), o)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Outcome != Fail || !strings.Contains(r.Detail, "the client exited with status 0 at ") || strings.Contains(r.Detail, "crash") {
		t.Errorf("8.1/1: %s %s; want a fail saying the client exited with status 0, no crash", r.Outcome, r.Detail)
	}
}

// TestClientCrashPastVerdict: a crash fails a case whatever its verdict:
// 2.2/1 sees no oversize datagram from a client that exits 3 on its
// first Snapshot, and fails for the crash.
func TestClientCrashPastVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real process and waits on loopback UDP")
	}
	t.Setenv(crashClientEnv, "any")
	o := Options{Run: regexp.MustCompile(`^2\.2/1$`)}
	rep, err := RunClient(context.Background(), Command(nil, os.Args[0], "{addr}"), o)
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Results[0]
	if r.Outcome != Fail || !strings.HasPrefix(r.Detail, "the client exited with status 3 at ") || !strings.HasSuffix(r.Detail, ", during the case (did it crash?)") {
		t.Errorf("2.2/1: %s %s; want a fail for the crash", r.Outcome, r.Detail)
	}
}
