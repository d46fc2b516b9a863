package session

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// §7.2, §8.4: every Pong that matches a Ping gives one EventPong with the
// round trip measured from the times passed, below the millisecond the
// timestamps count in; a Pong that matches no Ping is dropped.
func TestClient_7_2_PongEvents(t *testing.T) {
	const (
		ping    = -1 // send a Ping (Flush)
		unknown = -2 // a Pong with a timestamp no Ping carried
		zeroTS  = -3 // a Pong with timestamp 0
		us      = time.Microsecond
		ms      = time.Millisecond
	)
	type step struct {
		at   time.Duration // after the Welcome
		pong int           // index of the Ping answered, or ping, unknown, zeroTS
	}
	tests := []struct {
		name  string
		steps []step
		rtts  []time.Duration
		srtt  time.Duration
		drops uint64
	}{
		{"sub-millisecond round trip", []step{{250 * us, ping}, {1000 * us, 0}},
			[]time.Duration{750 * us}, 750 * us, 0},
		{"two Pings in one millisecond each match their own", []step{
			{1000 * us, ping}, {1100 * us, ping}, {1400 * us, 1}, {1900 * us, 0},
		}, []time.Duration{300 * us, 900 * us}, 300*us + (900*us-300*us)/8, 0},
		{"smoothed with weight 1/8", []step{
			{0, ping}, {40 * ms, 0}, {50 * ms, ping}, {98 * ms, 1},
		}, []time.Duration{40 * ms, 48 * ms}, 41 * ms, 0},
		{"answered twice: the second is dropped", []step{{0, ping}, {5 * ms, 0}, {6 * ms, 0}},
			[]time.Duration{5 * ms}, 5 * ms, 1},
		{"unknown timestamp", []step{{0, ping}, {5 * ms, unknown}}, nil, 0, 1},
		{"timestamp 0", []step{{0, ping}, {5 * ms, zeroTS}}, nil, 0, 1},
		{"Pong before its Ping's time counts 0", []step{{10 * ms, ping}, {9 * ms, 0}},
			[]time.Duration{0}, 0, 0},
		{"a Ping pushed out of the ring of 8 is forgotten", []step{
			{0, ping}, {1 * ms, ping}, {2 * ms, ping}, {3 * ms, ping}, {4 * ms, ping},
			{5 * ms, ping}, {6 * ms, ping}, {7 * ms, ping}, {8 * ms, ping},
			{20 * ms, 0}, {20 * ms, 8},
		}, []time.Duration{12 * ms}, 12 * ms, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, cp := connectedClient(t, ClientConfig{})
			var sent []uint32
			seq := uint32(0)
			for _, s := range tt.steps {
				now := t0.Add(s.at)
				if s.pong == ping {
					c.nextPing = now // a Ping now, closer than the 1 s, to pair them freely
					if err := c.Flush(now); err != nil {
						t.Fatal(err)
					}
					pings := ofType(t, cp.take(), rtype.TypePing)
					if len(pings) != 1 {
						t.Fatalf("at %v: %d Pings sent, want 1", s.at, len(pings))
					}
					var p rtype.Ping
					if err := p.UnmarshalBinary(pings[0].Payload); err != nil {
						t.Fatal(err)
					}
					sent = append(sent, p.Timestamp)
					continue
				}
				var ts uint32
				switch s.pong {
				case unknown:
					ts = sent[len(sent)-1] + 1000
				case zeroTS:
					ts = 0
				default:
					ts = sent[s.pong]
				}
				seq++
				c.Receive(srv(t, seq, rtype.Pong{Timestamp: ts}), serverAddr, now)
			}
			seen := map[uint32]bool{}
			for _, ts := range sent {
				if ts == 0 || seen[ts] {
					t.Errorf("Ping timestamps %v: each must be unique and not 0", sent)
				}
				seen[ts] = true
			}
			var rtts []time.Duration
			for _, e := range events(c, EventPong) {
				rtts = append(rtts, e.RTT)
			}
			if diff := cmp.Diff(tt.rtts, rtts); diff != "" {
				t.Errorf("EventPong RTTs (-want +got):\n%s", diff)
			}
			st := c.Stats()
			if st.SRTT != tt.srtt {
				t.Errorf("Stats.SRTT %v, want %v", st.SRTT, tt.srtt)
			}
			if st.Pongs != uint64(len(tt.rtts)) || st.Drops.Count(DropUnmatchedPong) != tt.drops {
				t.Errorf("Stats.Pongs %d, DropUnmatchedPong %d; want %d, %d", st.Pongs, st.Drops.Count(DropUnmatchedPong), len(tt.rtts), tt.drops)
			}
		})
	}
}

// The hot path of TestHotPathsDoNotAllocate answers the client's Pings:
// each Pong there is measured and reported, so that proof covers them.
func TestClient_7_2_HotPathMeasuresPongs(t *testing.T) {
	c, f := clientReceiving(t, nil)
	for range 200 { // 10 s of Snapshots at 20 per second, a Ping per second
		f()
	}
	// Each Ping rides with an Input and is answered at the next frame,
	// 50 ms later.
	if st := c.Stats(); st.Pongs < 9 || st.Drops.Count(DropUnmatchedPong) != 0 || st.SRTT != 50*time.Millisecond {
		t.Errorf("%d Pongs, %d dropped, SRTT %v; want about 10, 0, 50ms", st.Pongs, st.Drops.Count(DropUnmatchedPong), st.SRTT)
	}
}

// The least of the last 8 round trips: an older least is forgotten.
func TestRecentRTTs_Least(t *testing.T) {
	var w recentRTTs
	if got := w.least(); got != 0 {
		t.Errorf("no sample: %v, want 0", got)
	}
	ms := time.Millisecond
	for i, tc := range []struct{ add, want time.Duration }{
		{50 * ms, 50 * ms}, {20 * ms, 20 * ms}, {90 * ms, 20 * ms},
		{60 * ms, 20 * ms}, {60 * ms, 20 * ms}, {60 * ms, 20 * ms},
		{60 * ms, 20 * ms}, {60 * ms, 20 * ms}, {60 * ms, 20 * ms}, // the 50 goes
		{60 * ms, 60 * ms}, // the 20 goes
	} {
		w.add(tc.add)
		if got := w.least(); got != tc.want {
			t.Errorf("after sample %d: least %v, want %v", i+1, got, tc.want)
		}
	}
}
