package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/rtypefuzz"
)

// pcapRecords counts the records of a pcap file.
func pcapRecords(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for b = b[24:]; len(b) >= 16; n++ {
		b = b[16+int(binary.LittleEndian.Uint32(b[8:])):]
	}
	return n
}

// A finding's pcap is its capture, the session's opening first, not its
// reproducer's datagrams alone; a finding that fires with no fuzzed
// datagram says so, with an empty reproducer; an amplification's are
// datagrams from an address without a connection.
func TestReportFinding(t *testing.T) {
	packet := rtypefuzz.Datagram{At: 40 * time.Millisecond, Out: true, Bytes: make([]byte, rtype.PacketHeaderSize)}
	binary.BigEndian.PutUint32(packet.Bytes, 7)
	capture := []rtypefuzz.Datagram{
		{Out: true, Bytes: rtype.AppendHello(nil)},
		{At: time.Millisecond, Bytes: rtype.AppendWelcome(nil, 7)},
		packet,
	}
	stray := rtypefuzz.Datagram{Out: true, Bytes: []byte{1, 2, 3}}
	for _, tt := range []struct {
		name     string
		command  []string
		f        rtypefuzz.Finding
		say      string
		datagram bool // the reproducer has a datagram line
	}{
		{"stray", nil, rtypefuzz.Finding{Oracle: rtypefuzz.Amplification, Detail: "an answer",
			Sent: []rtypefuzz.Datagram{stray, stray}, Capture: capture},
			"2 datagrams from an address without a connection (the last sent, one of them answered: the server cannot be restarted to tell which", true},
		{"shrunk", []string{"srv"}, rtypefuzz.Finding{Oracle: rtypefuzz.Exited, Detail: "it crashed", Conn: 7, Shrunk: true,
			Sent: []rtypefuzz.Datagram{packet}, Capture: capture}, "1 datagrams after the session's opening (shrunk)", true},
		{"unprovoked", []string{"srv"}, rtypefuzz.Finding{Oracle: rtypefuzz.Oversize, Detail: "a 600-byte datagram", Conn: 7, Shrunk: true,
			Unprovoked: true, Capture: capture}, "fires with no fuzzed datagram: the implementation's own traffic breaks the rule", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var out, errs bytes.Buffer
			if code := reportFinding(&fuzzConfig{out: dir, command: tt.command}, rtypefuzz.Server, &tt.f, &out, &errs); code != exitFail {
				t.Errorf("exit %d, want %d", code, exitFail)
			}
			text := out.String()
			if !strings.Contains(strings.Join(strings.Fields(text), " "), tt.say) || errs.Len() > 0 {
				t.Errorf("printed\n%s%s\nwant %q", text, errs.String(), tt.say)
			}
			for _, line := range strings.Split(text, "\n") {
				if utf8.RuneCountInString(line) > 80 {
					t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(line), line)
				}
			}
			if n := pcapRecords(t, filepath.Join(dir, "finding-1.pcap")); n != len(capture) {
				t.Errorf("finding-1.pcap holds %d datagrams, want the capture's %d", n, len(capture))
			}
			repro, err := os.ReadFile(filepath.Join(dir, "finding-1.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(repro), "\n+"); got != tt.datagram {
				t.Errorf("finding-1.txt has a datagram: %v, want %v\n%s", got, tt.datagram, repro)
			}
		})
	}
}
