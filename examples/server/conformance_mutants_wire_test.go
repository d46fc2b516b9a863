package main

import (
	"encoding/binary"
	"net/netip"
	"slices"
	"sync"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
)

// wireMutants lists the broken servers of §2–§6 and §12, one MUST case
// each.
func wireMutants() []mutant {
	return slices.Concat(sizeBreaks(), handshakeBreaks(), windowBreaks(), framingBreaks(), checkBreaks(), garbageBreaks())
}

func sizeBreaks() []mutant {
	return []mutant{
		{name: "sends549", catch: []string{"2.2/1"}, also: []string{"8.1/5"}, out: inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
			if isPacket(b) && seqOf(b)%8 == 4 {
				w.send(to, padded(b, rtype.MaxDatagramSize+1))
			}
			return true
		})},
		{name: "accepts549", catch: []string{"2.2/2"}, in: bytesOnly(func(b []byte) []byte {
			if len(b) <= rtype.MaxDatagramSize {
				return b
			}
			if offs, trailing, over := walk(b); len(offs) >= 2 && trailing == 0 && over < 0 {
				return b[:offs[len(offs)-1]] // the padding message cut off
			}
			return b
		})},
		{name: "drops548", catch: []string{"2.2/3"}, in: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			return len(b) != rtype.MaxDatagramSize
		})},
		// A server that stops answering a connection after an oversized
		// datagram: the probe of 2.2/2, asked twice before it judges,
		// still finds it silent.
		{name: "silentAfter549", catch: []string{"2.2/2"}, in: silencedBy(func(b []byte) bool {
			return len(b) > rtype.MaxDatagramSize
		})},
	}
}

// silencedBy drops a datagram trigger accepts and every later one from
// its address: the connection stops answering.
func silencedBy(trigger func(b []byte) bool) rewrite {
	var mu sync.Mutex
	silent := map[netip.AddrPort]bool{}
	return inPlace(func(_ *wire, from netip.AddrPort, b []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		silent[from] = silent[from] || trigger(b)
		return !silent[from]
	})
}

func handshakeBreaks() []mutant {
	return []mutant{
		{name: "welcomesConnectedHello", catch: []string{"3/1"}, in: inPlace(func(w *wire, from netip.AddrPort, b []byte) bool {
			// A port an earlier, closed connection used is no connected
			// address.
			if isHello(b) && w.peer(from).joined && w.open(from) {
				w.send(from, rtype.AppendWelcome(nil, w.peer(from).id))
			}
			return true
		})},
		{name: "firstAnswerNotWelcome", catch: []string{"4.2/1"}, out: firstWelcome(func(b []byte) { b[5] = byte(rtype.HandshakeHello) })},
		{name: "badMagic", catch: []string{"4.2/2"}, in: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) != rtype.Magic && b[4] == 1 && b[5] == 1
		})},
		{name: "badVersion", catch: []string{"4.2/3"}, in: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] != 1 && b[5] == 1
		})},
		// As a v1 server would, it also drops a Hello from an address it
		// welcomed (§13.2): the probe of 4.2/3 must come from elsewhere.
		{name: "badVersionDropsRepeatedHello", catch: []string{"4.2/3"}, in: func(w *wire, from netip.AddrPort, b []byte) []byte {
			if len(b) == 6 && w.peer(from).welcomes > 0 {
				return nil
			}
			return rewriteHello(func(b []byte) bool {
				return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] != 1 && b[5] == 1
			})(w, from, b)
		}},
		{name: "badType", catch: []string{"4.2/4"}, in: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] == 1 && (b[5] == 0 || b[5] >= 4)
		})},
		{name: "serverTypes", catch: []string{"4.2/5"}, in: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] == 1 && (b[5] == 2 || b[5] == 3)
		})},
		{name: "truncatedHello", catch: []string{"4.2/6"}, in: bytesOnly(func(b []byte) []byte {
			if len(b) == 5 && binary.BigEndian.Uint32(b) == rtype.Magic {
				return append(b, byte(rtype.HandshakeHello))
			}
			return b
		})},
		{name: "welcomes7Bytes", catch: []string{"4.2/7"}, in: bytesOnly(func(b []byte) []byte {
			if len(b) == 7 && binary.BigEndian.Uint32(b) == rtype.Magic {
				return b[:6]
			}
			return b
		})},
		{name: "sharedID", catch: []string{"4.2/8"}, in: fromSharedID, out: toSharedID},
		{name: "welcomeVersion2", catch: []string{"4.3/1"}, out: firstWelcome(func(b []byte) { b[4] = 2 })},
		{name: "welcomeID0", catch: []string{"4.3/2"}, out: firstWelcome(func(b []byte) { clear(b[6:10]) })},
		// One Welcome of the run, whichever case's Hello it answers: the
		// next Hello from that address gets a good one (§13.2).
		{name: "firstWelcomeOfRunID0", catch: []string{"4.3/2"}, out: nthWelcome(func(n int) bool { return n == 1 }, func(b []byte) { clear(b[6:10]) })},
		{name: "everySeventhWelcomeID0", catch: []string{"4.3/2"}, out: nthWelcome(func(n int) bool { return n%7 == 0 }, func(b []byte) { clear(b[6:10]) })},
		// Every Welcome broken: no case gets a connection, the run goes on.
		welcomes11Bytes, welcomesID0,
	}
}

// welcomes11Bytes sends every Welcome with one byte more, welcomesID0 with
// connectionId 0: the suite's probe gets an answer, never a valid Welcome.
var (
	welcomes11Bytes = mutant{name: "welcomes11Bytes", catch: []string{"4.3/1"}, out: everyWelcome(func(b []byte) []byte { return append(b, 0) })}
	welcomesID0     = mutant{name: "welcomesID0", catch: []string{"4.3/2"}, out: everyWelcome(func(b []byte) []byte { clear(b[6:10]); return b })}
)

// everyWelcome is a rewrite of every Welcome the server sends.
func everyWelcome(change func(b []byte) []byte) rewrite {
	return bytesOnly(func(b []byte) []byte {
		if len(b) == rtype.WelcomeSize && hasMagic(b) && b[5] == byte(rtype.HandshakeWelcome) {
			return change(b)
		}
		return b
	})
}

func windowBreaks() []mutant {
	return []mutant{
		{name: "ackLowAfterGap", catch: []string{"5.1/1"}, out: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) {
				if ack, bits := ackOf(b); ack > 3 && bits&7 == 4 {
					binary.BigEndian.PutUint32(b[8:], ack-1)
				}
			}
			return true
		})},
		{name: "ackBitsFlip", catch: []string{"5.1/2"}, out: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) {
				if ack, bits := ackOf(b); ack >= 5 {
					binary.BigEndian.PutUint32(b[12:], bits^0x10)
				}
			}
			return true
		})},
		// ackBits a bit off, either way: the cases whose verdict reads it
		// (a packet dropped as §5.4 asks, not acknowledged) rest on 5.1/2;
		// 5.1/3 reads it too.
		{name: "ackBitsOneLow", catch: []string{"5.1/2"}, also: []string{"5.1/3"}, out: shiftAckBits(func(bits uint32) uint32 { return bits >> 1 })},
		{name: "ackBitsOneHigh", catch: []string{"5.1/2"}, also: []string{"5.1/3"}, out: shiftAckBits(func(bits uint32) uint32 { return bits << 1 })},
		{name: "sendsOtherID", catch: []string{"5.1/4"}, out: inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
			if isPacket(b) && seqOf(b)%8 == 4 {
				c := slices.Clone(b)
				binary.BigEndian.PutUint32(c, binary.BigEndian.Uint32(c)+1)
				w.send(to, c)
			}
			return true
		})},
		{name: "ackLastReceived", catch: []string{"5.1/3"}, in: noteWindow, out: ackLastReceived},
		{name: "skipsSequence", catch: []string{"5.2/1"}, cfg: v1, out: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) && seqOf(b) >= 3 {
				binary.BigEndian.PutUint32(b[4:], seqOf(b)+1)
			}
			return true
		})},
		// The suite's client drops every packet but the first as a
		// duplicate: the cases that wait for the server's messages rest
		// on 5.2/1.
		{name: "seqStuckAt1", catch: []string{"5.2/1"}, notRunFor: "5.2/1", out: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) {
				binary.BigEndian.PutUint32(b[4:], 1)
			}
			return true
		})},
		{name: "processesDuplicate", catch: []string{"5.2/2"}, in: renumber(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqDuplicate && seq == high
		})},
		{name: "processesSeenAgain", catch: []string{"5.2/3"}, in: renumber(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqDuplicate && seq < high
		})},
		{name: "processesTooOld", catch: []string{"5.2/4"}, in: renumber(func(c rtype.SeqClass, _, _ uint32) bool {
			return c == rtype.SeqTooOld
		})},
		{name: "drops32Below", catch: []string{"5.2/5"}, in: dropSeq(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqOutOfOrder && high-seq == 32
		})},
		{name: "dropsPastGap", catch: []string{"5.2/6"}, in: dropSeq(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqNew && high != 0 && seq-high == 5
		})},
		{name: "drops1Below", catch: []string{"5.2/7"}, in: dropSeq(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqOutOfOrder && high-seq == 1
		})},
		{name: "acksCutHeader", catch: []string{"5.2/8"}, in: bytesOnly(func(b []byte) []byte {
			if offs, trailing, _ := walk(b); len(b) > 16 && len(offs) == 0 && trailing == len(b)-16 {
				return b[:16]
			}
			return b
		})},
	}
}

func framingBreaks() []mutant {
	return []mutant{
		{name: "stripsCutHeader", catch: []string{"5.3/1"}, in: trimTrailing(2, 3)},
		{name: "fitsSize", catch: []string{"5.3/2"}, in: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if _, _, over := walk(b); over >= 0 && isPacket(b) {
				binary.BigEndian.PutUint16(b[over+2:], uint16(len(b)-over-4))
			}
			return true
		})},
		{name: "stripsTrailingByte", catch: []string{"5.3/3"}, in: trimTrailing(1, 1)},
		{name: "firstPingOnly", catch: []string{"5.3/4"}, in: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			pings := 0
			for _, o := range msgOffsets(b) {
				if rtype.MessageType(binary.BigEndian.Uint16(b[o:])) == rtype.TypePing {
					if pings++; pings == 2 {
						binary.BigEndian.PutUint16(b[o:], 0x007F)
					}
				}
			}
			return true
		})},
		{name: "dropsEmpty", catch: []string{"5.3/5"}, in: inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			return len(b) != 16
		})},
		{name: "dropsZeroSize", catch: []string{"5.3/6"}, in: dropMessages(func(typ rtype.MessageType, size int) bool {
			return size == 0 && !known(typ)
		})},
		{name: "sendsBadFraming", catch: []string{"5.3/7"}, out: inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
			if offs := msgOffsets(b); isPacket(b) && seqOf(b)%8 == 4 && len(offs) > 0 {
				c := slices.Clone(b)
				last := offs[len(offs)-1]
				binary.BigEndian.PutUint16(c[last+2:], binary.BigEndian.Uint16(c[last+2:])+1)
				w.send(to, c)
			}
			return true
		})},
		{name: "dropsUnknownClientType", catch: []string{"6/1"}, in: dropMessages(func(typ rtype.MessageType, size int) bool {
			return !known(typ) && typ < 0x80 && size > 0 && size < 16
		})},
		{name: "dropsUnknownServerType", catch: []string{"6/2"}, in: dropMessages(func(typ rtype.MessageType, size int) bool {
			return !known(typ) && typ >= 0x80 && typ <= 0xFF && size > 0 && size < 16
		})},
		// Every fourth packet with a Snapshot a client gets, whatever its
		// sequence: 6/3 watches 400 ms, some eight Snapshots (§10), and
		// which sequences carry one depends on the other cases' traffic.
		{name: "sendsType0x183", catch: []string{"6/3"}, out: inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
			if _, ok := carries(b, rtype.TypeSnapshot); !ok || !isPacket(b) {
				return true
			}
			pe := w.peer(to)
			if pe.state["snapshots"]++; pe.state["snapshots"]%4 != 0 {
				return true
			}
			for _, o := range msgOffsets(b) {
				if rtype.MessageType(binary.BigEndian.Uint16(b[o:])) == rtype.TypeSnapshot {
					binary.BigEndian.PutUint16(b[o:], 0x0183)
				}
			}
			return true
		})},
	}
}

func checkBreaks() []mutant {
	return []mutant{
		{name: "padsShort", catch: []string{"5.4/1"}, in: bytesOnly(func(b []byte) []byte {
			if len(b) == 15 {
				return append(b, 0)
			}
			return b
		})},
		{name: "unknownIDIsSender", catch: []string{"5.4/2"}, in: ownID(false)},
		{name: "routesByID", catch: []string{"5.4/3"}, route: byID},
		{name: "otherPlayerIDIsSender", catch: []string{"5.4/4"}, in: ownID(true)},
	}
}

func garbageBreaks() []mutant {
	rejected := rtype.AppendRejected(nil)
	return []mutant{
		{name: "answersNoise", catch: []string{"12/1"}, in: inPlace(func(w *wire, from netip.AddrPort, b []byte) bool {
			if _, err := rtype.ParsePacket(b); w.peer(from).id == 0 && len(b) != 6 && len(b) <= rtype.MaxDatagramSize && err != nil && !hasMagic(b) {
				w.send(from, rejected)
			}
			return true
		})},
		{name: "answersStrangerPacket", catch: []string{"12/2"}, in: inPlace(func(w *wire, from netip.AddrPort, b []byte) bool {
			if w.peer(from).id == 0 && hasPing(b) {
				w.send(from, rejected)
			}
			return true
		})},
		{name: "answersOversize", catch: []string{"12/3"}, in: inPlace(func(w *wire, from netip.AddrPort, b []byte) bool {
			if w.peer(from).id == 0 && len(b) > rtype.MaxDatagramSize {
				w.send(from, rejected)
			}
			return true
		})},
	}
}

// shiftAckBits rewrites the ackBits of every server packet with f.
func shiftAckBits(f func(bits uint32) uint32) rewrite {
	return inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
		if isPacket(b) {
			_, bits := ackOf(b)
			binary.BigEndian.PutUint32(b[12:], f(bits))
		}
		return true
	})
}

// v1 runs the server as version 1 describes it (gameserver.V1).
func v1(c *gameserver.Config) { c.Session = gameserver.V1() }

// firstWelcome changes, in place, the first Welcome sent to each address.
func firstWelcome(change func(b []byte)) rewrite {
	return inPlace(func(w *wire, to netip.AddrPort, b []byte) bool {
		if len(b) == 10 && b[5] == byte(rtype.HandshakeWelcome) && w.peer(to).welcomes == 1 {
			change(b)
		}
		return true
	})
}

// nthWelcome changes, in place, the Welcomes the server sends whose
// number in the whole run, from 1, pick accepts.
func nthWelcome(pick func(n int) bool, change func(b []byte)) rewrite {
	return inPlace(func(w *wire, _ netip.AddrPort, b []byte) bool {
		if len(b) == 10 && b[5] == byte(rtype.HandshakeWelcome) {
			n := 0
			for _, p := range w.peers {
				n += p.welcomes // learn counted this one
			}
			if pick(n) {
				change(b)
			}
		}
		return true
	})
}

// rewriteHello turns a 6-byte handshake datagram bad accepts into a Hello.
func rewriteHello(bad func(b []byte) bool) rewrite {
	return inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
		if len(b) == 6 && bad(b) {
			copy(b, rtype.AppendHello(nil))
		}
		return true
	})
}

// sharedID is the connection id toSharedID welcomes every client with on
// the wire; fromSharedID maps it back to the session's own id of the
// sender's address.
const sharedID = 0x0000_5EED

func fromSharedID(w *wire, from netip.AddrPort, b []byte) []byte {
	if id := w.peer(from).id; id != 0 && isPacket(b) && binary.BigEndian.Uint32(b) == sharedID {
		binary.BigEndian.PutUint32(b, id)
	}
	return b
}

func toSharedID(_ *wire, _ netip.AddrPort, b []byte) []byte {
	switch {
	case len(b) == 10 && b[5] == byte(rtype.HandshakeWelcome):
		binary.BigEndian.PutUint32(b[6:], sharedID)
	case isPacket(b):
		binary.BigEndian.PutUint32(b, sharedID)
	}
	return b
}

// noteWindow keeps the §5.2 window of each client's packets, for
// ackLastReceived.
func noteWindow(w *wire, from netip.AddrPort, b []byte) []byte {
	w.window(from, b)
	return b
}

// ackLastReceived acknowledges, as ack, the last packet received rather
// than the highest.
func ackLastReceived(w *wire, to netip.AddrPort, b []byte) []byte {
	if p := w.peer(to); p.win != nil && isPacket(b) {
		if ack, _ := ackOf(b); p.last < ack {
			binary.BigEndian.PutUint32(b[8:], p.last)
		}
	}
	return b
}

// seqState is the renumbering of one address's packets.
type seqState struct{ off, high uint32 }

// renumber gives each packet whose §5.2 class fresh accepts a fresh
// sequence, above every one the server saw, so that the server processes
// it; the following packets are shifted to stay above.
func renumber(fresh func(c rtype.SeqClass, seq, high uint32) bool) rewrite {
	return func(w *wire, from netip.AddrPort, b []byte) []byte {
		c, seq, high, ok := w.window(from, b)
		if !ok {
			return b
		}
		s := &w.peer(from).renum
		mapped := seq + s.off
		if fresh(c, seq, high) {
			mapped = s.high + 1
			s.off = mapped - high
		}
		s.high = max(s.high, mapped)
		binary.BigEndian.PutUint32(b[4:], mapped)
		return b
	}
}

// dropSeq drops the packets whose §5.2 class drop accepts.
func dropSeq(drop func(c rtype.SeqClass, seq, high uint32) bool) rewrite {
	return inPlace(func(w *wire, from netip.AddrPort, b []byte) bool {
		c, seq, high, ok := w.window(from, b)
		return !ok || !drop(c, seq, high)
	})
}

// dropMessages drops the packets with a message drop accepts.
func dropMessages(drop func(typ rtype.MessageType, size int) bool) rewrite {
	return inPlace(func(_ *wire, _ netip.AddrPort, b []byte) bool {
		if !isPacket(b) {
			return true
		}
		for _, o := range msgOffsets(b) {
			if drop(rtype.MessageType(binary.BigEndian.Uint16(b[o:])), int(binary.BigEndian.Uint16(b[o+2:]))) {
				return false
			}
		}
		return true
	})
}

// ownID rewrites the connectionId of a welcomed client's packet to its
// own when it is another one: another connection's (others) or one no
// connection has (!others).
func ownID(others bool) rewrite {
	return inPlace(func(w *wire, from netip.AddrPort, b []byte) bool {
		own := w.peer(from).id
		if own == 0 || !isPacket(b) {
			return true
		}
		if id := binary.BigEndian.Uint32(b); id != own {
			if _, given := w.owners[id]; given == others {
				binary.BigEndian.PutUint32(b, own)
			}
		}
		return true
	})
}

// byID hands a packet from a client with no connection that carries
// another client's connection id to the session as that client's: a
// server that binds connections to ids, not to addresses.
func byID(w *wire, from netip.AddrPort, b []byte) netip.AddrPort {
	if w.peer(from).id != 0 || len(b) < 16 {
		return from
	}
	if owner, ok := w.owners[binary.BigEndian.Uint32(b)]; ok {
		return owner
	}
	return from
}

// trimTrailing cuts from min to max bytes left after the last complete
// message of a packet with at least one.
func trimTrailing(minCut, maxCut int) rewrite {
	return bytesOnly(func(b []byte) []byte {
		if offs, trailing, over := walk(b); len(offs) > 0 && over < 0 && trailing >= minCut && trailing <= maxCut {
			return b[:len(b)-trailing]
		}
		return b
	})
}

// padded returns a copy of packet b with one more message, of type 0x00FE,
// that brings it to n bytes.
func padded(b []byte, n int) []byte {
	c := slices.Clone(b)
	c = binary.BigEndian.AppendUint16(c, 0x00FE)
	c = binary.BigEndian.AppendUint16(c, uint16(n-len(b)-4))
	return append(c, make([]byte, n-len(b)-4)...)
}

func known(t rtype.MessageType) bool {
	switch t {
	case rtype.TypeInput, rtype.TypePing, rtype.TypeDisconnect, rtype.TypeQueryEntity:
		return true
	}
	return false
}

// hasPing reports whether b is a packet with a Ping.
func hasPing(b []byte) bool {
	if _, err := rtype.ParsePacket(b); err != nil {
		return false
	}
	for _, o := range msgOffsets(b) {
		if rtype.MessageType(binary.BigEndian.Uint16(b[o:])) == rtype.TypePing {
			return true
		}
	}
	return false
}

func isHello(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeHello
}
