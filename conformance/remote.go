package conformance

import (
	"fmt"
	"sync"
	"time"

	"github.com/rtypeproto/rtype"
)

// remote is, in client mode, the client under test as the scripted server
// sees it: its address, the Hellos it sent, and once welcomed its
// connection, numbered and acked as a server does (§5).
type remote struct {
	peer
	h *harness
	// stop makes the client quit, once; nil without a command.
	stop func()

	hellos []time.Time
	// lastHello is when the latest Hello came, also past maxHellos.
	lastHello time.Time
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
	r := &remote{peer: peer{t: t, ep: h.ep}, h: h}
	r.handshake = r.takeHandshake
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
		dg, ok := r.recv(end) // from any address, r.to not known yet
		if !ok {
			t.Skipf("no Hello from a new client address within %v of starting it%s", wait, r.exited())
		}
		if h.claim(dg.from) {
			r.to = dg.from
			r.takeHandshake(dg)
			// The case's own time starts once its client runs.
			t.deadline = time.Now().Add(t.limit)
			return r
		}
	}
}

// connect starts a client, welcomes it and waits for its first packet,
// which each of observers sees; the case is skipped if none comes.
func (t *check) connect(observers ...func(m msg)) *remote {
	r := t.startClient()
	for _, f := range observers {
		r.observe(f)
	}
	r.welcome(t.harness.id())
	if _, ok := r.expect(firstPacket, func(msg) bool { return true }); !ok {
		t.Skipf("welcomed as connection %d, the client sent no packet within %v", r.id, firstPacket)
	}
	return r
}

// exited says, for a detail, whether the client already ended.
func (r *remote) exited() string {
	if r.ended() {
		return " (the client exited)"
	}
	return ""
}

// takeHandshake records the client's Hellos: before the Welcome every
// datagram is a handshake datagram (§3), after it a 6-byte Hello still is
// one, as a client may resend Hello while the Welcome is on its way.
func (r *remote) takeHandshake(dg datagram) bool {
	hello := isHello(dg.b)
	if hello {
		r.lastHello = dg.at
		if len(r.hellos) < maxHellos {
			r.hellos = append(r.hellos, dg.at)
		}
	}
	return hello || r.id == 0
}

// maxHellos bounds the Hello times kept: enough to judge a resend interval
// and a give-up, whatever a client floods.
const maxHellos = 256

// welcome sends a Welcome with id from the server address, and takes the
// client's datagrams as connected packets from then on (§3).
func (r *remote) welcome(id uint32) {
	r.id = id
	r.h.ep.peers.Store(r.to, true)
	r.sendRaw(rtype.AppendWelcome(nil, id))
}

// quit makes the client's player quit and waits for it to end; the case is
// skipped when the suite cannot make it quit (no command).
func (r *remote) quit() {
	if r.stop == nil {
		r.t.Skipf("needs a client the suite can make quit: give rtypecheck the client's command")
	}
	r.stop()
}

// quitDisconnect makes the client's player quit and returns the
// Disconnect the client sent (§7.3), if one came.
func (r *remote) quitDisconnect() (msg, bool) {
	r.quit()
	return r.expect(answerWait, isType(rtype.TypeDisconnect))
}

// isHello reports whether b is exactly a Hello (§4.1, §4.2).
func isHello(b []byte) bool {
	typ, _, err := rtype.ParseHandshake(b)
	return err == nil && typ == rtype.HandshakeHello
}
