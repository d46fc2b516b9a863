package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"net/netip"
	"time"
)

// Stateless address validation (§4.2, §12), like TCP SYN cookies: a
// Welcome's id is a MAC of the client's address and time window, so a first
// packet whose id matches its source for the current or previous window
// proves it received that Welcome; an off-path guess wins 2⁻³². Ids are no
// longer sequential as §12 describes; the wire is unchanged.

// validationWindow is the time step of the MAC. An id verifies in its
// window and the next, 5 to 10 s after its Welcome: longer than any round
// trip, with room for Hellos resent every second, and within the 10 s a
// client keeps trying (§4.2), after which a sniffed id expires.
const validationWindow = 5 * time.Second

// idCandidates is the number of ids an address may get in one window: the
// second (counter 1) serves when the first is open (a 2⁻³² chance) or one of
// the address's recently closed connections, so a client reconnecting from
// the same port gets a new id and its old late packets stay refused.
const idCandidates = 2

// cookieInputSize is the MAC input: the IPv6 or IPv4-mapped address (16
// bytes), the port (2), the window (8) and the candidate counter (1).
const cookieInputSize = 16 + 2 + 8 + 1

// cookieJar computes the ids; its own buffers keep hashing allocation-free.
type cookieJar struct {
	mac hash.Hash
	in  [cookieInputSize]byte
	sum [sha256.Size]byte
}

// newCookieJar keys the MAC with key, or 32 random bytes if key is empty.
func newCookieJar(key []byte) cookieJar {
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key) // never fails (crypto/rand, Go 1.24)
	}
	return cookieJar{mac: hmac.New(sha256.New, key)}
}

// window returns the number of the validation window now falls in.
func window(now time.Time) uint64 {
	return uint64(now.Unix()) / uint64(validationWindow/time.Second)
}

// id returns candidate k of the connection id for a in window w: the first
// non-zero 32-bit word of HMAC-SHA256, so never 0 (§4.3).
func (j *cookieJar) id(a netip.AddrPort, w uint64, k uint8) uint32 {
	ip := a.Addr().As16()
	copy(j.in[:16], ip[:])
	binary.BigEndian.PutUint16(j.in[16:], a.Port())
	binary.BigEndian.PutUint64(j.in[18:], w)
	j.in[26] = k
	j.mac.Reset()
	j.mac.Write(j.in[:])
	sum := j.mac.Sum(j.sum[:0])
	for i := 0; i+4 <= len(sum); i += 4 {
		if id := binary.BigEndian.Uint32(sum[i:]); id != 0 {
			return id
		}
	}
	return 1 // all 256 bits zero: never seen, but 0 is not an id
}

// verify reports whether id is a's candidate in now's or the previous window.
func (j *cookieJar) verify(id uint32, a netip.AddrPort, now time.Time) bool {
	w := window(now)
	for _, win := range [2]uint64{w, w - 1} {
		for k := range uint8(idCandidates) {
			if j.id(a, win, k) == id {
				return true
			}
		}
	}
	return false
}
