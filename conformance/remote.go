package conformance

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
)

// remote is, in client mode, the client under test as the scripted server
// sees it: its address, the Hellos it sent, and once welcomed its
// connection, numbered and acked as a server does (§5).
type remote struct {
	t    *check
	h    *harness
	addr netip.AddrPort
	done <-chan struct{}
	// stop makes the client quit, once; nil without a command.
	stop func()

	hellos []time.Time
	// lastHello is when the latest Hello came, also past maxHellos.
	lastHello time.Time
	id        uint32
	seq       uint32          // highest sequence sent to the client
	win       rtype.SeqWindow // the client's packets

	// observe, when set, sees every message of every valid packet.
	observe func(m cmsg)
	// invalid counts the client's datagrams after Welcome that are no
	// valid connected packet of its connection, with the first reason.
	invalid    int
	invalidWhy string
	// others counts datagrams from addresses other than the client's.
	others int
}

// cmsg is one message of a client packet as the scripted server received
// it; raw.Type is 0 for a packet with no message.
type cmsg struct {
	hdr  rtype.PacketHeader
	raw  rtype.RawMessage
	size int
	at   time.Time
}

// Timing of client mode: how long a client may take to start and send its
// first Hello (a "go run" compiles first), and to send its first packet
// once welcomed.
const (
	clientStart  = 20 * time.Second
	firstPacket  = 2 * time.Second
	handWaitUser = 60 * time.Second
)

// startClient starts a fresh client and waits for its first Hello from an
// address no earlier case used; the case is skipped when none comes.
func (t *check) startClient() *remote {
	h := t.harness
	r := &remote{t: t, h: h}
	wait := clientStart
	if h.start == nil {
		wait = handWaitUser
		fmt.Fprintf(h.log, "rtypecheck: waiting for a new client to connect to %v\n", h.addr())
	} else {
		quit, done, err := h.start(t.ctx, h.addr())
		if err != nil {
			t.Skipf("cannot start the client: %v", err)
		}
		r.done = done
		var once sync.Once
		r.stop = func() { once.Do(quit) }
		t.cleanup(r.stop)
	}
	end := time.Now().Add(wait)
	for {
		dg, ok := r.recvAny(end)
		if !ok {
			t.Skipf("no Hello from a new client address within %v of starting it%s", wait, r.exited())
		}
		if h.claim(dg.from) {
			r.addr = dg.from
			r.hello(dg)
			// The case's own time starts once its client runs.
			t.deadline = time.Now().Add(t.limit)
			return r
		}
	}
}

// exited says, for a detail, whether the client already ended.
func (r *remote) exited() string {
	select {
	case <-r.done:
		return " (the client exited)"
	default:
		return ""
	}
}

// recvAny returns the next datagram from any address before end, or
// false at end or when the client exited; end may lie past the case's
// deadline only while a client is starting.
func (r *remote) recvAny(end time.Time) (datagram, bool) {
	for time.Now().Before(end) && r.t.alive() {
		step := time.Now().Add(100 * time.Millisecond)
		if step.After(end) {
			step = end
		}
		if dg, ok := r.h.ep.recv(step); ok {
			return dg, true
		}
		select {
		case <-r.done:
			return datagram{}, false
		default:
		}
	}
	return datagram{}, false
}

func (r *remote) hello(dg datagram) {
	if typ, _, err := rtype.ParseHandshake(dg.b); err == nil && typ == rtype.HandshakeHello {
		r.addHello(dg.at)
	}
}

// maxHellos bounds the Hello times kept: enough to judge a resend interval
// and a give-up, whatever a client floods.
const maxHellos = 256

// addHello records a Hello's arrival; past maxHellos only lastHello moves.
func (r *remote) addHello(at time.Time) {
	r.lastHello = at
	if len(r.hellos) < maxHellos {
		r.hellos = append(r.hellos, at)
	}
}

// welcome sends a Welcome with id from the server address, and takes the
// client's datagrams as connected packets from then on (§3).
func (r *remote) welcome(id uint32) {
	r.id = id
	r.h.ep.peers.Store(r.addr, true)
	r.h.ep.sendTo(r.addr, rtype.AppendWelcome(nil, id))
}

// connect starts a client, welcomes it and waits for its first packet; the
// case is skipped if none comes.
func (t *check) connect() *remote {
	r := t.startClient()
	r.welcome(t.harness.id())
	if _, ok := r.expect(firstPacket, func(cmsg) bool { return true }); !ok {
		t.Skipf("welcomed as connection %d, the client sent no packet within %v", r.id, firstPacket)
	}
	return r
}

// header returns the header of a server packet numbered seq, acking the
// client's packets (§5.1).
func (r *remote) header(seq uint32) []byte {
	ack, bits := r.win.Ack()
	b := make([]byte, 0, rtype.MaxDatagramSize)
	b = binary.BigEndian.AppendUint32(b, r.id)
	b = binary.BigEndian.AppendUint32(b, seq)
	b = binary.BigEndian.AppendUint32(b, ack)
	return binary.BigEndian.AppendUint32(b, bits)
}

// sendSeq sends a packet numbered seq carrying msgs, encoded as given.
func (r *remote) sendSeq(seq uint32, msgs ...rtype.Message) {
	b := r.header(seq)
	for _, m := range msgs {
		b = appendMessage(b, m)
	}
	r.sendRaw(b)
	r.seq = max(r.seq, seq)
}

// send sends the next packet of the server's numbering (§5.2).
func (r *remote) send(msgs ...rtype.Message) uint32 {
	seq := r.seq + 1
	r.sendSeq(seq, msgs...)
	return seq
}

// sendRaw sends b from the server address as it is.
func (r *remote) sendRaw(b []byte) { r.h.ep.sendTo(r.addr, b) }
