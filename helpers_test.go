package rtype

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// readHex reads a golden file: hex bytes, spaces allowed, '#' starts a
// comment that runs to the end of the line.
func readHex(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []byte
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		b, err := hex.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, b...)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// mustHex decodes a hex string with spaces, for short vectors in tables.
func mustHex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// encodeHandshake encodes the handshake datagram of type t, with id for a
// Welcome.
func encodeHandshake(t HandshakeType, id uint32) []byte {
	switch t {
	case HandshakeHello:
		return AppendHello(nil)
	case HandshakeWelcome:
		return AppendWelcome(nil, id)
	case HandshakeRejected:
		return AppendRejected(nil)
	}
	return nil
}

// messageCount counts the messages of a packet.
func messageCount(p Packet) int {
	n := 0
	for range p.Messages() {
		n++
	}
	return n
}
