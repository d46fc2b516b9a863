package rtype_test

import (
	"fmt"

	"github.com/rtypeproto/rtype"
)

// The receive path of a server that counts nanoseconds: ParsePacket is
// inlined into the caller, and SplitMessage keeps the loop's state in local
// variables. The datagram is the packet of §11.3.
func ExampleSplitMessage() {
	datagram := []byte{
		0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x78, 0xFF, 0xFF, 0xFF, 0xFF,
		0x00, 0x02, 0x00, 0x09, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0x01, 0x2C, 0x11,
	}
	p, err := rtype.ParsePacket(datagram)
	if err != nil {
		return // drop the whole datagram silently (§5.3)
	}
	h := p.Header()
	fmt.Printf("connection %d, ack %d\n", h.ConnectionID, h.Ack)
	for m, rest, ok := rtype.SplitMessage(p.MessageArea()); ok; m, rest, ok = rtype.SplitMessage(rest) {
		if m.Type != rtype.TypeInput {
			continue // unknown and unwanted types are skipped (§6)
		}
		var in rtype.Input
		if in.UnmarshalBinary(m.Payload) == nil {
			fmt.Printf("input %d: %v\n", in.InputSequence, in.Actions)
		}
	}
	// Output:
	// connection 1, ack 120
	// input 42: Up|Shoot
}

// Decoding the packet of §11.3: parse the datagram's framing once, then
// decode the messages the receiver knows and skip the others.
func ExampleParsePacket() {
	datagram := []byte{
		0x00, 0x00, 0x00, 0x01, // connectionId 1
		0x00, 0x00, 0x00, 0x05, // sequence 5
		0x00, 0x00, 0x00, 0x78, // ack 120
		0xFF, 0xFF, 0xFF, 0xFF, // ackBits
		0x00, 0x02, 0x00, 0x09, // Input, 9 bytes
		0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0x01, 0x2C, 0x11,
	}
	p, err := rtype.ParsePacket(datagram)
	if err != nil {
		return // drop the whole datagram silently (§5.3)
	}
	h := p.Header()
	fmt.Printf("connection %d, sequence %d\n", h.ConnectionID, h.Sequence)
	for m := range p.Messages() {
		switch m.Type {
		case rtype.TypeInput:
			var in rtype.Input
			if err := in.UnmarshalBinary(m.Payload); err != nil {
				continue // drop this message only
			}
			fmt.Printf("input %d at tick %d: %v\n", in.InputSequence, in.ClientTick, in.Actions)
		default:
			// Unknown types are ignored (§6).
		}
	}
	// Output:
	// connection 1, sequence 5
	// input 42 at tick 300: Up|Shoot
}

// Encoding the CreateEntity message of §11.4.
func ExampleAppendMessage() {
	m := rtype.CreateEntity{
		ServerTick: 600,
		NetworkID:  1005,
		EntityType: rtype.ArchetypeOf("enemyBidos"),
		X:          rtype.PosFromPixels(2000),
		Y:          rtype.PosFromPixels(300),
		Rotation:   rtype.RotFromRadians(0),
	}
	b, err := rtype.AppendMessage(nil, m)
	if err != nil {
		panic(err)
	}
	fmt.Printf("% X\n", b)
	// Output:
	// 00 84 00 10 00 00 02 58 00 00 03 ED 87 FF 9F 40 84 B0 00 00
}

// A server fills one packet per Snapshot part; the Builder refuses what
// does not fit in 548 bytes instead of growing.
func ExampleBuilder() {
	states := make([]rtype.EntityState, 60)
	for i := range states {
		states[i] = rtype.EntityState{NetworkID: uint32(i + 1), X: rtype.PosFromPixels(float64(10 * i))}
	}
	var b rtype.Builder
	seq := uint32(0)
	for part := range rtype.SplitSnapshot(900, states) {
		seq++
		if err := b.Reset(rtype.PacketHeader{ConnectionID: 3, Sequence: seq}); err != nil {
			panic(err)
		}
		if err := rtype.Add(&b, part); err != nil {
			panic(err)
		}
		fmt.Printf("packet %d: %d states, %d bytes\n", seq, len(part.States), b.Len())
	}
	// Output:
	// packet 1: 47 states, 543 bytes
	// packet 2: 13 states, 169 bytes
}

// The receive window of §5.2 classifies every incoming sequence and gives
// the ack and ackBits to send back: bit i stands for sequence ack − 1 − i
// (§5.1), so after 40 only 30 (bit 9) is still in the window.
func ExampleSeqWindow() {
	var w rtype.SeqWindow
	for _, seq := range []uint32{1, 2, 4, 3, 3, 30, 5, 1, 40, 5} {
		fmt.Printf("%d: %v\n", seq, w.Receive(seq))
	}
	ack, bits := w.Ack()
	fmt.Printf("ack %d, ackBits %032b\n", ack, bits)
	// Output:
	// 1: New
	// 2: New
	// 4: New
	// 3: OutOfOrder
	// 3: Duplicate
	// 30: New
	// 5: OutOfOrder
	// 1: Duplicate
	// 40: New
	// 5: TooOld
	// ack 40, ackBits 00000000000000000000001000000000
}

func ExampleParseHandshake() {
	t, id, err := rtype.ParseHandshake([]byte{0x52, 0x54, 0x59, 0x50, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01})
	fmt.Println(t, id, err)
	// Output: Welcome 1 <nil>
}
