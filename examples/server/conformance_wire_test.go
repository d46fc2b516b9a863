package main

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/examples/internal/gameserver"
	"github.com/rtypeproto/rtype/session"
)

// TestConformanceV1 runs the whole server suite against the example server
// as version 1 describes it (no resent entity events, no Rejected): every
// MUST case passes, none relying on the §13 fixes.
func TestConformanceV1(t *testing.T) {
	conformance.TestServer(t, serveExample(t, func(c *gameserver.Config) { c.Session = gameserver.V1() }), conformance.Options{})
}

// A wireBreak is a broken example server: one rule of §2–§6 or §12
// broken, by session hooks (which may drop a datagram, rewrite it in place
// or write more on the server's socket) or by a relay in front of the
// server (which may change a datagram's length or its route).
type wireBreak struct {
	name string
	// catch is the case meant for it; also lists the related cases that
	// may fail with it.
	catch string
	also  []string
	// hooks builds the session hooks, given the server's socket.
	hooks func(conn *net.UDPConn) *session.Hooks
	// relay, when hooks is nil, changes what clients send.
	relay *relay
	// v1 runs the server with gameserver.V1().
	v1 bool
}

// TestConformanceWireMutations runs the MUST cases against each broken
// server: the case meant for it fails, and no unrelated MUST case does.
// The runs mostly wait on the network, so they go side by side, more of
// them than -parallel would allow on a small machine.
func TestConformanceWireMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the MUST cases against each broken server")
	}
	must := mustCases("")
	breaks := wireBreaks()
	reps := make([]*conformance.Report, len(breaks))
	errs := make([]error, len(breaks))
	sem := make(chan struct{}, 12)
	var wg sync.WaitGroup
	for i, m := range breaks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			addr, stop, err := m.serve()
			if err != nil {
				errs[i] = err
				return
			}
			defer stop()
			run := must
			if !mustLevel(m.catch) {
				run = mustCases(m.catch) // a SHOULD case, where a broken server is cheap
			}
			reps[i], errs[i] = conformance.RunServer(context.Background(), addr, conformance.Options{Run: run})
		}()
	}
	wg.Wait()
	for i, m := range breaks {
		t.Run(strings.ReplaceAll(m.catch, "/", "_")+"_"+m.name, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			checkCaught(t, reps[i], m.catch, m.also)
		})
	}
}

// mustCases matches the ids of every MUST server case, and of extra when
// not empty.
func mustCases(extra string) *regexp.Regexp {
	var ids []string
	for _, c := range conformance.Cases(conformance.ServerMode) {
		if c.Level == conformance.Must || c.ID == extra {
			ids = append(ids, regexp.QuoteMeta(c.ID))
		}
	}
	return regexp.MustCompile("^(" + strings.Join(ids, "|") + ")$")
}

// mustLevel reports whether server case id is a MUST case.
func mustLevel(id string) bool {
	for _, c := range conformance.Cases(conformance.ServerMode) {
		if c.ID == id {
			return c.Level == conformance.Must
		}
	}
	return false
}

// checkCaught fails t unless case catch failed and no other case failed
// but those of also.
func checkCaught(t *testing.T, rep *conformance.Report, catch string, also []string) {
	t.Helper()
	caught := false
	for _, r := range rep.Results {
		switch {
		case r.Outcome != conformance.Fail:
		case r.Case.ID == catch:
			caught = true
			t.Logf("caught by %s: %s", r.Case.ID, r.Detail)
		case slices.Contains(also, r.Case.ID):
			t.Logf("also caught by %s: %s", r.Case.ID, r.Detail)
		default:
			t.Errorf("unrelated MUST case %s failed: %s", r.Case.ID, r.Detail)
		}
	}
	if !caught {
		for _, r := range rep.Results {
			if r.Case.ID == catch {
				t.Errorf("case %s did not catch it: %s %s", catch, r.Outcome, r.Detail)
				return
			}
		}
		t.Errorf("case %s did not run", catch)
	}
}

// serve starts the broken server and returns the address the suite
// tests and how to stop it.
func (m wireBreak) serve() (string, func(), error) {
	if m.hooks == nil {
		target, stopServer, err := startExample(gameserver.Config{}, nil)
		if err != nil {
			return "", nil, err
		}
		addr, stopRelay, err := m.relay.start(target)
		if err != nil {
			stopServer()
			return "", nil, err
		}
		return addr, func() { stopRelay(); stopServer() }, nil
	}
	var cfg gameserver.Config
	if m.v1 {
		cfg.Session = gameserver.V1()
	}
	return startExample(cfg, m.hooks)
}

// startExample runs the example server with cfg on a loopback port, its
// session hooks built by hooks when not nil.
func startExample(cfg gameserver.Config, hooks func(*net.UDPConn) *session.Hooks) (string, func(), error) {
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", nil, err
	}
	if hooks != nil {
		cfg.Session.Hooks = hooks(conn)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- gameserver.New(cfg).Serve(ctx, conn) }()
	return conn.LocalAddr().String(), func() {
		cancel()
		<-done
	}, nil
}

// wireBreaks lists the broken servers, one a MUST case of §2–§6 and §12.
func wireBreaks() []wireBreak {
	return slices.Concat(sizeBreaks(), handshakeBreaks(), windowBreaks(), framingBreaks(), checkBreaks(), garbageBreaks())
}

func sizeBreaks() []wireBreak {
	return []wireBreak{
		{name: "sends549", catch: "2.2/1", hooks: sendHook(func(w *wire, to netip.AddrPort, b []byte) bool {
			if isPacket(b) && seqOf(b)%8 == 4 {
				w.write(to, padded(b, rtype.MaxDatagramSize+1))
			}
			return true
		})},
		{name: "accepts549", catch: "2.2/2", relay: &relay{up: func(b []byte) []byte {
			if len(b) <= rtype.MaxDatagramSize {
				return b
			}
			if offs, trailing, over := walk(b); len(offs) >= 2 && trailing == 0 && over < 0 {
				return b[:offs[len(offs)-1]] // the padding message cut off
			}
			return b
		}}},
		{name: "drops548", catch: "2.2/3", hooks: receiveHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			return len(b) != rtype.MaxDatagramSize
		})},
	}
}

func handshakeBreaks() []wireBreak {
	return []wireBreak{
		{name: "welcomesConnectedHello", catch: "3/1", hooks: receiveHook(func(w *wire, from netip.AddrPort, b []byte) bool {
			if isHello(b) && w.joined[from] {
				w.write(from, rtype.AppendWelcome(nil, w.ids[from]))
			}
			return true
		})},
		{name: "firstAnswerNotWelcome", catch: "4.2/1", hooks: firstWelcome(func(b []byte) { b[5] = byte(rtype.HandshakeHello) })},
		{name: "badMagic", catch: "4.2/2", hooks: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) != rtype.Magic && b[4] == 1 && b[5] == 1
		})},
		{name: "badVersion", catch: "4.2/3", hooks: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] != 1 && b[5] == 1
		})},
		{name: "badType", catch: "4.2/4", hooks: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] == 1 && (b[5] == 0 || b[5] >= 4)
		})},
		{name: "serverTypes", catch: "4.2/5", hooks: rewriteHello(func(b []byte) bool {
			return binary.BigEndian.Uint32(b) == rtype.Magic && b[4] == 1 && (b[5] == 2 || b[5] == 3)
		})},
		{name: "truncatedHello", catch: "4.2/6", relay: &relay{up: func(b []byte) []byte {
			if len(b) == 5 && binary.BigEndian.Uint32(b) == rtype.Magic {
				return append(b, byte(rtype.HandshakeHello))
			}
			return b
		}}},
		{name: "welcomes7Bytes", catch: "4.2/7", relay: &relay{up: func(b []byte) []byte {
			if len(b) == 7 && binary.BigEndian.Uint32(b) == rtype.Magic {
				return b[:6]
			}
			return b
		}}},
		{name: "sharedID", catch: "4.2/8", hooks: sharedID},
		{name: "welcomeVersion2", catch: "4.3/1", hooks: firstWelcome(func(b []byte) { b[4] = 2 })},
		{name: "welcomeID0", catch: "4.3/2", hooks: firstWelcome(func(b []byte) { clear(b[6:10]) })},
	}
}

func windowBreaks() []wireBreak {
	return []wireBreak{
		{name: "ackLowAfterGap", catch: "5.1/1", hooks: sendHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) {
				if ack, bits := ackOf(b); ack > 3 && bits&7 == 4 {
					binary.BigEndian.PutUint32(b[8:], ack-1)
				}
			}
			return true
		})},
		{name: "ackBitsFlip", catch: "5.1/2", hooks: sendHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) {
				if ack, bits := ackOf(b); ack >= 5 {
					binary.BigEndian.PutUint32(b[12:], bits^0x10)
				}
			}
			return true
		})},
		{name: "sendsOtherID", catch: "5.1/4", hooks: sendHook(func(w *wire, to netip.AddrPort, b []byte) bool {
			if isPacket(b) && seqOf(b)%8 == 4 {
				c := slices.Clone(b)
				binary.BigEndian.PutUint32(c, binary.BigEndian.Uint32(c)+1)
				w.write(to, c)
			}
			return true
		})},
		{name: "ackLastReceived", catch: "5.1/3", hooks: ackLast},
		{name: "skipsSequence", catch: "5.2/1", v1: true, hooks: sendHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if isPacket(b) && seqOf(b) >= 3 {
				binary.BigEndian.PutUint32(b[4:], seqOf(b)+1)
			}
			return true
		})},
		{name: "processesDuplicate", catch: "5.2/2", hooks: renumber(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqDuplicate && seq == high
		})},
		{name: "processesSeenAgain", catch: "5.2/3", hooks: renumber(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqDuplicate && seq < high
		})},
		{name: "processesTooOld", catch: "5.2/4", hooks: renumber(func(c rtype.SeqClass, _, _ uint32) bool {
			return c == rtype.SeqTooOld
		})},
		{name: "drops32Below", catch: "5.2/5", hooks: dropSeq(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqOutOfOrder && high-seq == 32
		})},
		{name: "dropsPastGap", catch: "5.2/6", hooks: dropSeq(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqNew && high != 0 && seq-high == 5
		})},
		{name: "drops1Below", catch: "5.2/7", hooks: dropSeq(func(c rtype.SeqClass, seq, high uint32) bool {
			return c == rtype.SeqOutOfOrder && high-seq == 1
		})},
		{name: "acksCutHeader", catch: "5.2/8", relay: &relay{up: func(b []byte) []byte {
			if offs, trailing, _ := walk(b); len(b) > 16 && len(offs) == 0 && trailing == len(b)-16 {
				return b[:16]
			}
			return b
		}}},
	}
}

func framingBreaks() []wireBreak {
	return []wireBreak{
		{name: "stripsCutHeader", catch: "5.3/1", relay: trimTrailing(2, 3)},
		{name: "fitsSize", catch: "5.3/2", hooks: receiveHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			if _, _, over := walk(b); over >= 0 && isPacket(b) {
				binary.BigEndian.PutUint16(b[over+2:], uint16(len(b)-over-4))
			}
			return true
		})},
		{name: "stripsTrailingByte", catch: "5.3/3", relay: trimTrailing(1, 1)},
		{name: "firstPingOnly", catch: "5.3/4", hooks: receiveHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
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
		{name: "dropsEmpty", catch: "5.3/5", hooks: receiveHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			return len(b) != 16
		})},
		{name: "dropsZeroSize", catch: "5.3/6", hooks: dropMessages(func(typ rtype.MessageType, size int) bool {
			return size == 0 && !known(typ)
		})},
		{name: "sendsBadFraming", catch: "5.3/7", hooks: sendHook(func(w *wire, to netip.AddrPort, b []byte) bool {
			if offs := msgOffsets(b); isPacket(b) && seqOf(b)%8 == 4 && len(offs) > 0 {
				c := slices.Clone(b)
				last := offs[len(offs)-1]
				binary.BigEndian.PutUint16(c[last+2:], binary.BigEndian.Uint16(c[last+2:])+1)
				w.write(to, c)
			}
			return true
		})},
		{name: "dropsUnknownClientType", catch: "6/1", hooks: dropMessages(func(typ rtype.MessageType, size int) bool {
			return !known(typ) && typ < 0x80 && size > 0 && size < 16
		})},
		{name: "dropsUnknownServerType", catch: "6/2", hooks: dropMessages(func(typ rtype.MessageType, size int) bool {
			return !known(typ) && typ >= 0x80 && typ <= 0xFF && size > 0 && size < 16
		})},
		{name: "sendsType0x183", catch: "6/3", hooks: sendHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
			for _, o := range msgOffsets(b) {
				if isPacket(b) && seqOf(b)%8 == 4 && rtype.MessageType(binary.BigEndian.Uint16(b[o:])) == rtype.TypeSnapshot {
					binary.BigEndian.PutUint16(b[o:], 0x0183)
				}
			}
			return true
		})},
	}
}

func checkBreaks() []wireBreak {
	return []wireBreak{
		{name: "padsShort", catch: "5.4/1", relay: &relay{up: func(b []byte) []byte {
			if len(b) == 15 {
				return append(b, 0)
			}
			return b
		}}},
		{name: "unknownIDIsSender", catch: "5.4/2", hooks: ownID(false)},
		{name: "routesByID", catch: "5.4/3", relay: &relay{byID: true, up: func(b []byte) []byte { return b }}},
		{name: "otherPlayerIDIsSender", catch: "5.4/4", hooks: ownID(true)},
	}
}

func garbageBreaks() []wireBreak {
	rejected := rtype.AppendRejected(nil)
	return []wireBreak{
		{name: "answersNoise", catch: "12/1", hooks: receiveHook(func(w *wire, from netip.AddrPort, b []byte) bool {
			if _, err := rtype.ParsePacket(b); w.ids[from] == 0 && len(b) != 6 && len(b) <= rtype.MaxDatagramSize && err != nil && !hasMagic(b) {
				w.write(from, rejected)
			}
			return true
		})},
		{name: "answersStrangerPacket", catch: "12/2", hooks: receiveHook(func(w *wire, from netip.AddrPort, b []byte) bool {
			if w.ids[from] == 0 && hasPing(b) {
				w.write(from, rejected)
			}
			return true
		})},
		{name: "answersOversize", catch: "12/3", hooks: receiveHook(func(w *wire, from netip.AddrPort, b []byte) bool {
			if w.ids[from] == 0 && len(b) > rtype.MaxDatagramSize {
				w.write(from, rejected)
			}
			return true
		})},
	}
}

// wire is what a broken server's hooks know of the clients, learned from
// what the server sends: hooks run on the server's goroutine, one at a
// time, so it needs no lock.
type wire struct {
	conn *net.UDPConn
	// ids maps each welcomed address to its connection id, and known
	// holds those ids.
	ids   map[netip.AddrPort]uint32
	known map[uint32]bool
	// joined holds the addresses the server sent connected packets to.
	joined map[netip.AddrPort]bool
	// welcomes counts the Welcomes sent to each address.
	welcomes map[netip.AddrPort]int
	// win is, per address, the §5.2 window of the sequences received;
	// last the sequence of the last packet.
	win  map[netip.AddrPort]*rtype.SeqWindow
	last map[netip.AddrPort]uint32
	// seqs is, per address, the renumbering of its packets.
	seqs map[netip.AddrPort]*seqState
}

func newWire(conn *net.UDPConn) *wire {
	return &wire{conn: conn, ids: map[netip.AddrPort]uint32{}, known: map[uint32]bool{},
		joined: map[netip.AddrPort]bool{}, welcomes: map[netip.AddrPort]int{},
		win: map[netip.AddrPort]*rtype.SeqWindow{}, last: map[netip.AddrPort]uint32{},
		seqs: map[netip.AddrPort]*seqState{}}
}

// sent learns from a datagram the server sends.
func (w *wire) sent(to netip.AddrPort, b []byte) {
	to = unmapped(to)
	if t, id, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeWelcome {
		// A new client, perhaps on a port an earlier case used.
		w.ids[to], w.known[id] = id, true
		delete(w.joined, to)
		delete(w.win, to)
		delete(w.last, to)
		delete(w.seqs, to)
		return
	}
	if isPacket(b) {
		w.joined[to] = true
	}
}

// window classifies a packet from a welcomed address as §5.2 does and
// returns the class and the highest sequence before it.
func (w *wire) window(from netip.AddrPort, b []byte) (rtype.SeqClass, uint32, uint32, bool) {
	if w.ids[from] == 0 || !isPacket(b) || len(b) < 16 {
		return 0, 0, 0, false
	}
	sw := w.win[from]
	if sw == nil {
		sw = new(rtype.SeqWindow)
		w.win[from] = sw
	}
	high, _ := sw.Ack()
	seq := seqOf(b)
	w.last[from] = seq
	return sw.Receive(seq), seq, high, true
}

// write sends b from the server's socket, beside what the server sends.
func (w *wire) write(to netip.AddrPort, b []byte) {
	w.conn.WriteToUDPAddrPort(b, to)
}

// hooks builds session hooks from a receive and a send function; either
// may be nil.
func hooks(conn *net.UDPConn, recv, send func(w *wire, a netip.AddrPort, b []byte) bool) *session.Hooks {
	w := newWire(conn)
	return &session.Hooks{
		OnReceive: func(from netip.AddrPort, b []byte) bool {
			return recv == nil || recv(w, unmapped(from), b)
		},
		OnSend: func(to netip.AddrPort, b []byte) bool {
			w.sent(to, b) // before send changes it
			return send == nil || send(w, unmapped(to), b)
		},
	}
}

func receiveHook(f func(w *wire, from netip.AddrPort, b []byte) bool) func(*net.UDPConn) *session.Hooks {
	return func(c *net.UDPConn) *session.Hooks { return hooks(c, f, nil) }
}

func sendHook(f func(w *wire, to netip.AddrPort, b []byte) bool) func(*net.UDPConn) *session.Hooks {
	return func(c *net.UDPConn) *session.Hooks { return hooks(c, nil, f) }
}

// firstWelcome changes, in place, the first Welcome sent to each address.
func firstWelcome(change func(b []byte)) func(*net.UDPConn) *session.Hooks {
	return sendHook(func(w *wire, to netip.AddrPort, b []byte) bool {
		if len(b) == 10 && b[5] == byte(rtype.HandshakeWelcome) {
			if w.welcomes[to]++; w.welcomes[to] == 1 {
				change(b)
			}
		}
		return true
	})
}

// rewriteHello turns a 6-byte handshake datagram bad accepts into a Hello.
func rewriteHello(bad func(b []byte) bool) func(*net.UDPConn) *session.Hooks {
	return receiveHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
		if len(b) == 6 && bad(b) {
			copy(b, rtype.AppendHello(nil))
		}
		return true
	})
}

// sharedID welcomes every client with the same connection id on the
// wire, mapping it to and from the session's own ids by address.
func sharedID(conn *net.UDPConn) *session.Hooks {
	const shared = 0x0000_5EED
	return hooks(conn, func(w *wire, from netip.AddrPort, b []byte) bool {
		if id := w.ids[from]; id != 0 && isPacket(b) && binary.BigEndian.Uint32(b) == shared {
			binary.BigEndian.PutUint32(b, id)
		}
		return true
	}, func(_ *wire, _ netip.AddrPort, b []byte) bool {
		switch {
		case len(b) == 10 && b[5] == byte(rtype.HandshakeWelcome):
			binary.BigEndian.PutUint32(b[6:], shared)
		case isPacket(b):
			binary.BigEndian.PutUint32(b, shared)
		}
		return true
	})
}

// ackLast acknowledges, as ack, the last packet received rather than the
// highest.
func ackLast(conn *net.UDPConn) *session.Hooks {
	return hooks(conn, func(w *wire, from netip.AddrPort, b []byte) bool {
		w.window(from, b)
		return true
	}, func(w *wire, to netip.AddrPort, b []byte) bool {
		if last, ok := w.last[to]; ok && isPacket(b) {
			if ack, _ := ackOf(b); last < ack {
				binary.BigEndian.PutUint32(b[8:], last)
			}
		}
		return true
	})
}

// seqState is the renumbering of one address's packets.
type seqState struct{ off, high uint32 }

// renumber gives each packet whose §5.2 class fresh accepts a fresh
// sequence, above every one the server saw, so that the server processes
// it; the following packets are shifted to stay above.
func renumber(fresh func(c rtype.SeqClass, seq, high uint32) bool) func(*net.UDPConn) *session.Hooks {
	return func(conn *net.UDPConn) *session.Hooks {
		return hooks(conn, func(w *wire, from netip.AddrPort, b []byte) bool {
			c, seq, high, ok := w.window(from, b)
			if !ok {
				return true
			}
			s := w.seqs[from]
			if s == nil {
				s = &seqState{}
				w.seqs[from] = s
			}
			mapped := seq + s.off
			if fresh(c, seq, high) {
				mapped = s.high + 1
				s.off = mapped - high
			}
			s.high = max(s.high, mapped)
			binary.BigEndian.PutUint32(b[4:], mapped)
			return true
		}, nil)
	}
}

// dropSeq drops the packets whose §5.2 class drop accepts.
func dropSeq(drop func(c rtype.SeqClass, seq, high uint32) bool) func(*net.UDPConn) *session.Hooks {
	return receiveHook(func(w *wire, from netip.AddrPort, b []byte) bool {
		c, seq, high, ok := w.window(from, b)
		return !ok || !drop(c, seq, high)
	})
}

// dropMessages drops the packets with a message drop accepts.
func dropMessages(drop func(typ rtype.MessageType, size int) bool) func(*net.UDPConn) *session.Hooks {
	return receiveHook(func(_ *wire, _ netip.AddrPort, b []byte) bool {
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
// own when it is another one: another open connection's (others) or one
// no connection has (!others).
func ownID(others bool) func(*net.UDPConn) *session.Hooks {
	return receiveHook(func(w *wire, from netip.AddrPort, b []byte) bool {
		own := w.ids[from]
		if own == 0 || !isPacket(b) {
			return true
		}
		if id := binary.BigEndian.Uint32(b); id != own && w.known[id] == others {
			binary.BigEndian.PutUint32(b, own)
		}
		return true
	})
}

// trimTrailing is a relay that cuts from min to max bytes left after the
// last complete message of a packet with at least one.
func trimTrailing(minCut, maxCut int) *relay {
	return &relay{up: func(b []byte) []byte {
		if offs, trailing, over := walk(b); len(offs) > 0 && over < 0 && trailing >= minCut && trailing <= maxCut {
			return b[:len(b)-trailing]
		}
		return b
	}}
}

// walk reads the messages of packet b (§5.3): the offsets of the complete
// ones, the bytes left after them when fewer than a header, and the offset
// of a header whose size passes the end (-1 when none).
func walk(b []byte) (offs []int, trailing, over int) {
	over = -1
	if len(b) < 16 || len(b) > 1<<16 {
		return nil, 0, -1
	}
	for i := 16; i < len(b); {
		if len(b)-i < 4 {
			return offs, len(b) - i, -1
		}
		size := int(binary.BigEndian.Uint16(b[i+2:]))
		if i+4+size > len(b) {
			return offs, 0, i
		}
		offs = append(offs, i)
		i += 4 + size
	}
	return offs, 0, -1
}

// msgOffsets returns the offsets of the complete messages of packet b.
func msgOffsets(b []byte) []int {
	offs, _, _ := walk(b)
	return offs
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

func hasMagic(b []byte) bool { return len(b) >= 4 && binary.BigEndian.Uint32(b) == rtype.Magic }

func isHello(b []byte) bool {
	t, _, err := rtype.ParseHandshake(b)
	return err == nil && t == rtype.HandshakeHello
}

// isPacket reports whether b may be a connected packet: 16 bytes or more
// and no handshake datagram.
func isPacket(b []byte) bool {
	return len(b) >= 16 && !hasMagic(b)
}

func seqOf(b []byte) uint32 { return binary.BigEndian.Uint32(b[4:]) }

func ackOf(b []byte) (ack, bits uint32) {
	return binary.BigEndian.Uint32(b[8:]), binary.BigEndian.Uint32(b[12:])
}

func unmapped(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// relay stands in front of the server: each client gets its own socket
// towards the server, so the server still sees one address per client.
// up changes or drops (nil) what a client sends; with byID, a packet from a
// client with no connection that carries another client's connection id
// goes out of that client's socket: a server that binds connections to ids,
// not to addresses.
type relay struct {
	up   func(b []byte) []byte
	byID bool

	front  *net.UDPConn
	server netip.AddrPort
	mu     sync.Mutex
	legs   map[netip.AddrPort]*leg
	byConn map[uint32]*leg
	closed bool
}

// leg is one client's socket towards the server.
type leg struct {
	conn   *net.UDPConn
	client netip.AddrPort
	id     uint32
}

// start listens on a loopback port for the suite, relaying to target,
// until stopped.
func (r *relay) start(target string) (string, func(), error) {
	front, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", nil, err
	}
	r.front, r.server = front, netip.MustParseAddrPort(target)
	r.legs, r.byConn = map[netip.AddrPort]*leg{}, map[uint32]*leg{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.fromClients(&wg)
	}()
	return front.LocalAddr().String(), func() {
		front.Close()
		r.mu.Lock()
		for _, l := range r.legs {
			l.conn.Close()
		}
		r.closed = true
		r.mu.Unlock()
		wg.Wait()
	}, nil
}

func (r *relay) fromClients(wg *sync.WaitGroup) {
	buf := make([]byte, 1<<16)
	for {
		n, from, err := r.front.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		from = unmapped(from)
		l := r.leg(from, wg)
		if l == nil {
			return
		}
		out := r.up(slices.Clone(buf[:n]))
		if out == nil {
			continue
		}
		r.route(l, out).conn.WriteToUDPAddrPort(out, r.server)
	}
}

// leg returns the socket a datagram from client goes out of, opening one
// for a new client; nil once closed.
func (r *relay) leg(client netip.AddrPort, wg *sync.WaitGroup) *leg {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.legs[client]
	if l == nil && !r.closed {
		conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return nil
		}
		l = &leg{conn: conn, client: client}
		r.legs[client] = l
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.fromServer(l)
		}()
	}
	return l
}

// route returns the leg a client's packet b goes out of.
func (r *relay) route(l *leg, b []byte) *leg {
	if !r.byID || len(b) < 16 {
		return l
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if owner := r.byConn[binary.BigEndian.Uint32(b)]; owner != nil && l.id == 0 {
		return owner
	}
	return l
}

func (r *relay) fromServer(l *leg) {
	buf := make([]byte, 1<<16)
	for {
		n, _, err := l.conn.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		b := buf[:n]
		if t, id, err := rtype.ParseHandshake(b); err == nil && t == rtype.HandshakeWelcome {
			r.mu.Lock()
			l.id, r.byConn[id] = id, l
			r.mu.Unlock()
		}
		r.front.WriteToUDPAddrPort(b, l.client)
	}
}
