package conformance

import (
	"fmt"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rtypeproto/rtype"
)

// remote is, in client mode, the client under test as the scripted server
// sees it: its address, the Hellos it sent, and once welcomed its
// connection, numbered and acked as a server does (§5).
type remote struct {
	peer
	h *harness
	// stop makes the client quit, once; nil without a command. quitting
	// is set once it was called; self is the client as the harness counts
	// it, nil without a command.
	stop     func()
	quitting atomic.Bool
	// unwelcome is set by a case that leaves the client without a
	// connection, Rejected (§4.4) or no answer (§4.2): it may end with any
	// status, its own report of not getting in.
	unwelcome atomic.Bool
	self      *client

	// acks holds what the client's packets acked, once connected.
	acks ackLog

	hellos []time.Time
	// lastHello is when the latest Hello came, also past maxHellos.
	lastHello time.Time
}

// Timing of client mode: how long a client may take to start and send its
// first Hello, the first one a command starts longer (a "go run" compiles
// first), one started by hand longer still; and how long a client may
// take to send its first packet once welcomed. Each wait ends at what it
// waits for: only a client that never sends costs it whole, and a client
// starved of CPU on a loaded machine (at nice 19 beside other work, its
// first packet came over 2 s after the Welcome) is still heard.
const (
	clientStart  = 20 * time.Second
	firstStart   = 60 * time.Second
	handWaitUser = 60 * time.Second
	firstPacket  = 5 * time.Second
	// idWatch is how long 4.3/3 reads the packets of a welcomed client:
	// a whole second at any phase, and 120 packets at one a frame, so that
	// a wrong connectionId once a second or once in 100 packets shows.
	idWatch = 2 * time.Second
)

// startClient starts a fresh client, or asks for one by hand, and waits
// for its first Hello from an address no earlier case's client may still
// send from; the case is skipped when none comes. The case's time starts
// with that Hello.
func (t *check) startClient() *remote {
	h := t.cli.harness
	r := &remote{peer: peer{t: t, ep: h.ep}, h: h}
	r.handshake = r.takeHandshake
	var self *client
	begun := time.Now()
	if h.start == nil {
		fmt.Fprintf(h.log, "rtypecheck: case %d of %d, %s: start your client now, against %v (%s)\n", t.cli.nth, t.cli.of, t.id, h.addr(), t.cli.title)
	} else {
		quit, done, err := h.start(t.ctx, h.addr())
		if err != nil {
			t.noClient()
			t.Skipf("cannot start the client: %v", err)
		}
		self = h.begin(done)
		r.done, r.self = done, self
		var once sync.Once
		r.stop = func() {
			r.quitting.Store(true)
			once.Do(quit)
		}
		t.cleanup(func() {
			r.stop()
			procEnds.Delete(done)
		})
	}
	h.hold(r)
	end := begun.Add(t.cli.startWait)
	var refused netip.AddrPort
	for {
		dg, ok := r.recv(end) // from any address, r.to not known yet
		if !ok {
			t.noClient()
			t.Skipf("%s", r.noHello(time.Since(begun), refused))
		}
		if h.claim(dg.from, dg.at, self) {
			r.to = dg.from
			r.takeHandshake(dg)
			t.restart(dg.at)
			return r
		}
		if !refused.IsValid() {
			refused = dg.from
		}
	}
}

// noHello says why no client came, after waited: it exited, or never sent
// Hello; refused is an address that sent, which an earlier case's client
// had.
func (r *remote) noHello(waited time.Duration, refused netip.AddrPort) string {
	waited = waited.Round(time.Millisecond)
	var why string
	switch {
	case r.ended():
		why = fmt.Sprintf("the client exited within %v of its start, and sent no Hello", waited)
	case r.h.start == nil:
		why = fmt.Sprintf("no client sent Hello within %v of the prompt", r.t.cli.startWait)
	default:
		why = fmt.Sprintf("no Hello from the client within %v of starting it", r.t.cli.startWait)
	}
	if refused.IsValid() {
		why += fmt.Sprintf("; datagrams came from %v, the address of an earlier case's client, which may still run", refused)
	}
	return why
}

// connect starts a client, welcomes it and waits for its first packet,
// which each of observers sees; the case is skipped if none comes.
func (t *check) connect(observers ...func(m msg)) *remote {
	r := t.startClient()
	r.acks = ackLog{}
	r.observe(r.acks.see)
	for _, f := range observers {
		r.observe(f)
	}
	r.welcome(t.cli.harness.id())
	until, wait := t.upTo(firstPacket)
	if _, ok := r.poll(until, func(msg) bool { return true }); !ok {
		t.waitedOut("welcomed as connection %d, the client sent no packet within %v", r.id, wait)
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
// skipped when the suite cannot make it quit (no command). A case that
// quits says so (Case.quits), so that without a command it is skipped
// before any client is asked for.
func (r *remote) quit() {
	if r.stop == nil {
		r.t.Skipf("%s", byHandQuit)
	}
	r.stop()
}

// byHandQuit is why a case that makes its client quit is skipped when the
// client is started by hand.
const byHandQuit = "needs a client the suite can make quit, as its player quitting: not run with a client started by hand; give rtypecheck the client's command (rtypecheck client -- COMMAND)"

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
