package rtypefuzz

import (
	"net/netip"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// A finding's last datagrams are the lastKept latest, oldest first, the
// ring wrapped or not.
func TestRecentKeepsTheLast(t *testing.T) {
	for _, n := range []int{0, 1, lastKept - 1, lastKept, lastKept + 1, 3*lastKept + 5} {
		var r recent
		var want []Datagram
		for i := range n {
			d := Datagram{At: time.Duration(i), Bytes: []byte{byte(i)}}
			r.add(d)
			if len(want) == lastKept { // the model: a slice that drops its oldest
				want = want[1:]
			}
			want = append(want, d)
		}
		if diff := cmp.Diff(want, r.list(), cmpopts.EquateComparable(netip.AddrPort{})); diff != "" {
			t.Errorf("after %d datagrams (-want +got):\n%s", n, diff)
		}
	}
}
