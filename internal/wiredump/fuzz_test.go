package wiredump

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// FuzzDecode feeds any bytes to both parsers and both outputs: nothing may
// panic (§12), and the JSON must stay valid. Its seeds in
// testdata/fuzz/FuzzDecode are the datagrams of rtypedump's hex testdata:
// the §4 handshake rules, the §5.3 framing rules and every message of §6 to
// §8, the spec's examples among them. Each packet also goes through the
// §5.4 check of a client welcomed with connection id 5, and through
// Sides.Decode, whose phases it may move.
func FuzzDecode(f *testing.F) {
	at := &Origin{
		Time: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Src:  netip.MustParseAddrPort("127.0.0.1:50001"),
		Dst:  netip.MustParseAddrPort("127.0.0.1:4242"),
	}
	sides := NewSides(at.Dst.Port())
	welcome := Decode(Handshake, rtype.AppendWelcome(nil, 5))
	sides.Observe(at.Src, false, &welcome)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, k := range []Kind{Handshake, Packet} {
			d := Decode(k, b)
			sides.Check(at.Src, &d)
			if d.Err == nil && d.Kind == Packet && d.Header.ConnectionID != 5 {
				t.Fatalf("packet of id %d kept after a Welcome of 5", d.Header.ConnectionID)
			}
			out, err := json.Marshal(d.Object(1, at))
			if err != nil || !json.Valid(out) {
				t.Fatalf("JSON of %x: %v", b, err)
			}
			var text bytes.Buffer
			if err := NewText(&text).Datagram(1, nil, k, b); err != nil {
				t.Fatal(err)
			}
			if err := NewText(&text).Datagram(1, at, k, b); err != nil {
				t.Fatal(err)
			}
		}
		// Through the phases of §3: a client welcomed with id 5 and
		// connected, in both directions.
		s := NewSides(at.Dst.Port())
		s.Decode(at.Src, false, rtype.AppendWelcome(nil, 5))
		for _, toServer := range []bool{true, false, true} {
			d := s.Decode(at.Src, toServer, b)
			if d.Err == nil && d.Kind == Packet && d.Header.ConnectionID != 5 {
				t.Fatalf("packet of id %d kept after a Welcome of 5", d.Header.ConnectionID)
			}
		}
	})
}
