package rtypefuzz_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/bits"
	"net/netip"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
	"github.com/rtypeproto/rtype/rtypefuzz"
	"github.com/rtypeproto/rtype/rtypetest"
	"github.com/rtypeproto/rtype/session"
)

// sent is one datagram a run sent, as Options.Trace saw it, and which of
// its bytes hold values learnt from the server (see learnt).
type sent struct {
	n      int
	what   string
	b      []byte
	learnt []bool
}

// traced runs seed against a fresh session server at rate until it sent n
// datagrams, and returns them.
func traced(t *testing.T, seed uint64, rate, n int) []sent {
	t.Helper()
	var out []sent
	synctest.Test(t, func(t *testing.T) {
		nw := rtypetest.NewNetwork(1)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var mu sync.Mutex
		ids := idWords{}
		welcomes := &session.Hooks{OnSend: func(_ netip.AddrPort, b []byte) bool {
			if ht, id, err := rtype.ParseHandshake(b); err == nil && ht == rtype.HandshakeWelcome {
				mu.Lock()
				ids.add(id)
				mu.Unlock()
			}
			return true
		}}
		o := rtypefuzz.Options{Network: conformance.NetworkOf(nw.Listen), Seed: seed, Rate: rate,
			Trace: func(i int, what string, b []byte) {
				if i <= n {
					mu.Lock()
					out = append(out, sent{n: i, what: what, b: bytes.Clone(b), learnt: learnt(b, &ids)})
					mu.Unlock()
				}
				if i >= n {
					cancel()
				}
			}}
		start := startHost(nw, session.ServerConfig{}, welcomes)
		rep, err := rtypefuzz.FuzzServerStart(ctx, start, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Finding != nil {
			t.Fatalf("%s: %s", rep.Finding.Oracle, rep.Finding.Detail)
		}
	})
	return out
}

// idWords holds the 4-byte words a datagram may carry for the connection
// ids of the Welcomes seen, and their first 1 to 3 bytes, for a datagram
// that ends with part of one: looked up by value, as a run sees thousands.
type idWords [4]map[uint32]bool

// add records the words of id: the mutator sends it, its neighbours, and
// its bytes swapped.
func (w *idWords) add(id uint32) {
	for _, v := range []uint32{id, id + 1, id - 1, id | 1, bits.ReverseBytes32(id)} {
		for n := 1; n <= 4; n++ {
			if w[n-1] == nil {
				w[n-1] = map[uint32]bool{}
			}
			w[n-1][v>>(32-8*n)] = true
		}
	}
}

// at reports whether b begins with one of the words, or, shorter than 4
// bytes, with the start of one.
func (w *idWords) at(b []byte) bool {
	n := min(4, len(b))
	var v uint32
	for _, c := range b[:n] {
		v = v<<8 | uint32(c)
	}
	return w[n-1][v]
}

// learnt marks the bytes of b that hold values a session learns from the
// server: the connection id of its Welcome (§4.3), wherever the datagram
// holds it (the mutator sends it, its neighbours, its bytes swapped, in a
// header or a handshake, cut or repeated), and the ack and ackBits of the
// server's packets received (§5.1), which follow it in a header. The
// rest is what the seed and the datagram's number decide.
func learnt(b []byte, ids *idWords) []bool {
	mask := make([]bool, len(b))
	set := func(from, to int) {
		for i := from; i < min(to, len(b)); i++ {
			mask[i] = true
		}
	}
	if len(b) >= 4 && binary.BigEndian.Uint32(b) == rtype.Magic {
		set(6, rtype.WelcomeSize)
		return mask
	}
	set(0, 4)
	set(8, 16)
	for o := range b {
		// A datagram cut, or repeated to a length, may end with part of
		// one.
		if ids.at(b[o:]) {
			set(o, o+min(4, len(b)-o))
			set(o+8, o+16)
		}
	}
	return mask
}

// same reports whether a and b are the same datagram but for the bytes
// either marks learnt.
func same(a, b sent) bool {
	if a.n != b.n || a.what != b.what || len(a.b) != len(b.b) {
		return false
	}
	for i := range a.b {
		if a.b[i] != b.b[i] && !a.learnt[i] && !b.learnt[i] {
			return false
		}
	}
	return true
}

// The n-th datagram of a run is a function of the seed and n: two runs of
// one seed against the same server, at 2,000 and 700 datagrams a second
// (the server's answers, acks and Welcomes, come at other points of each),
// send the same first 10,000 datagrams, but for the values learnt from
// the server; a run of another seed does not.
func TestSeedRepeatsTheDatagrams(t *testing.T) {
	t.Parallel() // in virtual time, or none: CPU alone
	const n = 10000
	a, b := traced(t, 1, 2000, n), traced(t, 1, 700, n)
	if len(a) < n-n/50 || len(a) != len(b) {
		t.Fatalf("%d and %d datagrams traced, want about %d each", len(a), len(b), n)
	}
	differ, exact := 0, 0
	for i := range a {
		switch {
		case bytes.Equal(a[i].b, b[i].b) && a[i].what == b[i].what:
			exact++
		case !same(a[i], b[i]):
			if differ++; differ <= 5 {
				t.Errorf("datagram %d differs:\n2000/s: %s %x\n 700/s: %s %x", a[i].n, a[i].what, a[i].b, b[i].what, b[i].b)
			}
		}
	}
	t.Logf("%d datagrams: %d the same byte for byte, %d but for values learnt, %d other", len(a), exact, len(a)-exact-differ, differ)
	c := traced(t, 2, 2000, 1000)
	other := 0
	for i := range c {
		if same(c[i], a[i]) {
			other++
		}
	}
	if other > len(c)/2 {
		t.Errorf("seeds 1 and 2 share %d of %d datagrams", other, len(c))
	}
}
