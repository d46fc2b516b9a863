package rtypefuzz

import (
	"github.com/rtypeproto/rtype"
)

// serverPayloadEdits break the messages a server receives (§7). Offsets
// are those of the payload tables of §7.1 to §7.4.
var serverPayloadEdits = []payloadEdit{
	// §7.1: inputSequence is compared as a signed 32-bit difference, so
	// 2³¹ away and the wrap from 0xFFFFFFFF to 0 are its edges; one not
	// newer than the last must be dropped.
	setField(rtype.TypeInput, "inputSequence", 0, 4, inputSeqEdges),
	setField(rtype.TypeInput, "clientTick", 4, 4, edges(0, 0x7FFFFFFF, 0xFFFFFFFF)),
	// Bits 5 to 7 are reserved and must be 0; opposite directions held
	// together are valid, and resolved by §7.1.
	setField(rtype.TypeInput, "actions", 8, 1, edges(0x20, 0x40, 0x80, 0xE0, 0xFF, 0x03, 0x0C, 0x1F)),
	resize(rtype.TypeInput, 0, 1, 8, 10, rtype.MaxMessagePayload),
	// §7.2: any timestamp is valid; the server copies it into a Pong.
	setField(rtype.TypePing, "timestamp", 0, 4, edges(0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)),
	resize(rtype.TypePing, 0, 3, 5, 8),
	// §7.3: the server does not interpret the reason, out of range or not,
	// and closes the connection: rare, or no session would last.
	rare(setField(rtype.TypeDisconnect, "reason", 0, 1, edges(0, 5, 0x80, 0xFF))),
	rare(resize(rtype.TypeDisconnect, 0, 2, 4)),
	// §7.4: networkId 0 must be dropped; an unknown one gets no answer.
	setField(rtype.TypeQueryEntity, "networkId", 0, 4, idEdges),
	resize(rtype.TypeQueryEntity, 0, 3, 5, 8),
}

// inputSeqEdges are inputSequence values at their edges (§7.1).
func inputSeqEdges(m *Mutator, c *Context) []named {
	return []named{{"0", 0}, {"1", 1}, {"0x7FFFFFFF", 0x7FFFFFFF}, {"0x80000000", 0x80000000},
		{"0xFFFFFFFF", 0xFFFFFFFF}, {"the last one again", c.Seq}, {"2³¹ ahead", c.Seq + 1 + 1<<31}}
}
