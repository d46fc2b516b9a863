package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
)

// One rule for every field (§4.2, §7.4, §8.3): 0 means the default; a
// negative value switches off what has an off, and means the default for
// what has none, a bound or a loop's interval, rather than an empty table
// or a panicking ticker.
func TestConfig_OneRule(t *testing.T) {
	type all struct {
		Client ClientConfig
		Server ServerConfig
		Run    RunOptions
	}
	get := func(c ClientConfig, s ServerConfig, o RunOptions) all {
		return all{c.withDefaults(), s.withDefaults(), o.withDefaults()}
	}
	zero := get(ClientConfig{}, ServerConfig{}, RunOptions{})
	want := all{
		ClientConfig{GiveUp: DefaultGiveUp, ServerTimeout: DefaultTimeout, MaxEntities: DefaultMaxEntities, EventQueue: DefaultEventQueue},
		ServerConfig{MaxPlayers: DefaultMaxPlayers, InactivityTimeout: DefaultTimeout, SnapshotInterval: DefaultSnapshotInterval,
			EventQueue: DefaultEventQueue, SendBudget: DefaultSendBudget},
		RunOptions{Interval: DefaultInterval},
	}
	if diff := cmp.Diff(want, zero); diff != "" {
		t.Errorf("zero values (-want +got):\n%s", diff)
	}
	negative := get(
		ClientConfig{GiveUp: -1, ServerTimeout: -1, QueryRetry: -1, MaxEntities: -1, EventQueue: -1, ExpireUnlisted: -1},
		ServerConfig{MaxPlayers: -1, InactivityTimeout: -1, SnapshotInterval: -1, EventQueue: -1, SendBudget: -1, ReliableEvents: -1, Rejected: -1},
		RunOptions{Interval: -1})
	want = all{
		// Off: kept negative, read as off where used.
		ClientConfig{GiveUp: -1, ServerTimeout: -1, QueryRetry: -1, ExpireUnlisted: -1,
			// Bounds: the default.
			MaxEntities: DefaultMaxEntities, EventQueue: DefaultEventQueue},
		ServerConfig{InactivityTimeout: -1, SnapshotInterval: -1, SendBudget: -1, ReliableEvents: -1, Rejected: -1,
			MaxPlayers: DefaultMaxPlayers, EventQueue: DefaultEventQueue},
		RunOptions{Interval: DefaultInterval},
	}
	if diff := cmp.Diff(want, negative); diff != "" {
		t.Errorf("negative values (-want +got):\n%s", diff)
	}
	if got := (ServerConfig{MaxPlayers: 1000}).withDefaults().MaxPlayers; got != maxPlayers {
		t.Errorf("MaxPlayers 1000 means %d, want %d", got, maxPlayers)
	}
}

// What the rule gives the client's timers, in behaviour: Hello every
// second (§4.2), GiveUp 10 s by default and never when negative, a
// destroyed id not queried again for 2 s (§8.3), a query not repeated by
// default, nor with a negative QueryRetry (§7.4).
func TestClient_4_2_TimersByTheRule(t *testing.T) {
	// connecting runs Update every step for d on a client that gets no
	// answer and reports the Hellos sent and the state.
	connecting := func(cfg ClientConfig, step, d time.Duration) string {
		c, cp := newClient(cfg)
		for at := time.Duration(0); at <= d; at += step {
			c.Update(t0.Add(at))
		}
		return fmt.Sprintf("%d Hellos, %v, %d timeouts", len(cp.take()), c.State(), len(events(c, EventTimedOut)))
	}
	// queried feeds a connected client the steps, one packet each 100 ms,
	// and reports the QueryEntity messages it sent.
	queried := func(t *testing.T, cfg ClientConfig, steps ...[]rtype.Message) string {
		c, cp := connectedClient(t, cfg)
		n := 0
		for i, msgs := range steps {
			now := t0.Add(time.Duration(i) * 100 * time.Millisecond)
			c.Receive(srv(t, uint32(i+1), msgs...), serverAddr, now)
			c.Update(now)
			if err := c.SendInput(0, now); err != nil {
				t.Fatal(err)
			}
			n += len(ofType(t, cp.take(), rtype.TypeQueryEntity))
		}
		return fmt.Sprintf("%d queries", n)
	}
	// repeat lists the same messages in n packets.
	repeat := func(n int, msgs ...rtype.Message) [][]rtype.Message {
		out := make([][]rtype.Message, n)
		for i := range out {
			out[i] = msgs
		}
		return out
	}
	destroyed := [][]rtype.Message{{rtype.DestroyEntity{ServerTick: 2, NetworkID: 1, Reason: 1}}}
	tests := []struct {
		name string
		run  func(t *testing.T) string
		want string
	}{
		{"§4.2 Hello every second", func(*testing.T) string {
			return connecting(ClientConfig{}, 16*time.Millisecond, 5*time.Second)
		}, "5 Hellos, Connecting, 0 timeouts"},
		{"§4.2 GiveUp 0 gives up after 10 s", func(*testing.T) string {
			return connecting(ClientConfig{}, 100*time.Millisecond, 60*time.Second)
		}, "10 Hellos, Closed, 1 timeouts"},
		{"§4.2 negative GiveUp never gives up", func(*testing.T) string {
			return connecting(ClientConfig{GiveUp: -1}, 100*time.Millisecond, 60*time.Second)
		}, "61 Hellos, Connecting, 0 timeouts"},
		{"§8.3 a destroyed id listed for 1.9 s is not queried", func(t *testing.T) string {
			return queried(t, ClientConfig{}, append(destroyed, repeat(19, snapshot(3, 1))...)...)
		}, "0 queries"},
		{"§8.3 a destroyed id listed for 2 s is queried once forgotten", func(t *testing.T) string {
			return queried(t, ClientConfig{}, append(destroyed, repeat(25, snapshot(3, 1))...)...)
		}, "1 queries"},
		{"§7.4 QueryRetry 0 asks once", func(t *testing.T) string {
			return queried(t, ClientConfig{}, repeat(30, snapshot(3, 7))...)
		}, "1 queries"},
		{"§7.4 negative QueryRetry asks once", func(t *testing.T) string {
			return queried(t, ClientConfig{QueryRetry: -1}, repeat(30, snapshot(3, 7))...)
		}, "1 queries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run(t); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
