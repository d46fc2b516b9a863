package rtypetest

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// Every seed is a valid datagram of its kind (§4, §5.3), and the §11
// examples are among them, byte for byte.
func TestSeedsAreValid(t *testing.T) {
	seeds := Seeds()
	for i, s := range seeds {
		if _, _, err := rtype.ParseHandshake(s); err == nil {
			continue
		}
		p, err := rtype.ParsePacket(s)
		if err != nil {
			t.Errorf("seed %d (% x): %v", i, s, err)
			continue
		}
		for m := range p.Messages() {
			if err := decode(m); err != nil {
				t.Errorf("seed %d: message %v: %v", i, m.Type, err)
			}
		}
	}
	spec := [][]byte{
		{0x52, 0x54, 0x59, 0x50, 0x01, 0x01},                         // §11.1
		{0x52, 0x54, 0x59, 0x50, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01}, // §11.2
		{0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0x78, 0xFF, 0xFF, 0xFF, 0xFF,
			0, 2, 0, 9, 0, 0, 0, 0x2A, 0, 0, 1, 0x2C, 0x11}, // §11.3
	}
	for _, want := range spec {
		found := false
		for _, s := range seeds {
			found = found || bytes.Equal(s, want)
		}
		if !found {
			t.Errorf("no seed is % x", want)
		}
	}
}

func decode(m rtype.RawMessage) error {
	var err error
	switch m.Type {
	case rtype.TypeInput:
		var v rtype.Input
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypePing:
		var v rtype.Ping
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypeDisconnect:
		var v rtype.Disconnect
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypeQueryEntity:
		var v rtype.QueryEntity
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypeSnapshot:
		var v rtype.Snapshot
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypeCreateEntity:
		var v rtype.CreateEntity
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypeDestroyEntity:
		var v rtype.DestroyEntity
		err = v.UnmarshalBinary(m.Payload)
	case rtype.TypePong:
		var v rtype.Pong
		err = v.UnmarshalBinary(m.Payload)
	}
	return err
}

// Datagram gives at most 548 bytes (§2.2), the same for the same data; a
// packet it shapes is always framed whole (§5.3), and a session server and
// client take whatever it gives without panicking.
func FuzzDatagram(f *testing.F) {
	AddSeeds(f)
	f.Add([]byte{3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 200})
	srv := session.NewServer(session.ServerConfig{}, func(netip.AddrPort, []byte) {})
	cli := session.NewClient(serverAddr, session.ClientConfig{}, func(netip.AddrPort, []byte) {})
	cli.Update(Epoch)
	cli.Receive(rtype.AppendWelcome(nil, 1), serverAddr, Epoch)
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Datagram(data)
		if len(d) > rtype.MaxDatagramSize {
			t.Fatalf("%d bytes", len(d))
		}
		if !bytes.Equal(d, Datagram(data)) {
			t.Fatal("not the same datagram twice")
		}
		if len(data) > 0 && data[0]%5 == 3 {
			if _, err := rtype.ParsePacket(d); err != nil && err != rtype.ErrZeroConnectionID {
				t.Fatalf("shaped packet % x: %v", d, err)
			}
		}
		srv.Receive(d, clientAddr(0), Epoch.Add(time.Second))
		cli.Receive(d, serverAddr, Epoch.Add(time.Second))
	})
}
