package wiredump

import (
	"encoding/json"
	"testing"
)

// The JSON form of the §11.3 packet, of a packet whose framing breaks
// (§5.3): the error names the offset of the bad message header, and of
// messages outside the catalog, type 0 among them, which a receiver ignores
// (§6): no error, the packet kept.
func TestDecodedObjectJSON(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		want string
	}{
		{"§11.3 Input packet", specInput,
			`{"n":1,"kind":"packet","valid":true,"connectionId":1,"sequence":5,"ack":120,"ackBits":4294967295,` +
				`"messages":[{"type":"Input","typeId":2,"size":9,"valid":true,"inputSequence":42,"clientTick":300,"actions":["Up","Shoot"]}]}`},
		{"§5.3 message header cut", specInput[:18],
			`{"n":1,"kind":"packet","valid":false,"error":"rtype: truncated message header at byte 16",` +
				`"connectionId":1,"sequence":5,"ack":120,"ackBits":4294967295,"size":18,"data":"000000010000000500000078ffffffff0002"}`},
		{"§6 type 0 and 0x0050 ignored", append(append([]byte(nil), specInput[:16]...), 0, 0, 0, 1, 0xaa, 0, 0x50, 0, 0),
			`{"n":1,"kind":"packet","valid":true,"connectionId":1,"sequence":5,"ack":120,"ackBits":4294967295,"messages":[` +
				`{"type":"unknown","typeId":0,"size":1,"valid":true,"ignored":true,"payload":"aa"},` +
				`{"type":"unknown","typeId":80,"size":0,"valid":true,"ignored":true,"payload":""}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decode(Packet, tt.b)
			got, err := json.Marshal(d.Object(1, nil))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
