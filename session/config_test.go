package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/rtypeproto/rtype"
)

// A negative client duration switches its timer off (§4.2, §7.4, §8.3):
// a negative HelloInterval sends Hello once, a negative GiveUp never gives
// up, a negative DestroyedMemory never forgets a destroyed id, while the
// queries still expire on their own; a non-positive frame or tick interval
// of the UDP bindings means the default rather than a panicking ticker.
func TestClient_4_2_NegativeDurationsSwitchTimersOff(t *testing.T) {
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
		cfg.PingInterval = -1
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
	tests := []struct {
		name string
		run  func(t *testing.T) string
		want string
	}{
		{"§4.2 HelloInterval 0 resends every second", func(*testing.T) string {
			return connecting(ClientConfig{}, 16*time.Millisecond, 5*time.Second)
		}, "5 Hellos, Connecting, 0 timeouts"},
		{"§4.2 negative HelloInterval sends Hello once", func(*testing.T) string {
			return connecting(ClientConfig{HelloInterval: -1}, 16*time.Millisecond, 5*time.Second)
		}, "1 Hellos, Connecting, 0 timeouts"},
		{"§4.2 GiveUp 0 gives up after 10 s", func(*testing.T) string {
			return connecting(ClientConfig{}, 100*time.Millisecond, 60*time.Second)
		}, "10 Hellos, Closed, 1 timeouts"},
		{"§4.2 negative GiveUp never gives up", func(*testing.T) string {
			return connecting(ClientConfig{GiveUp: -1}, 100*time.Millisecond, 60*time.Second)
		}, "61 Hellos, Connecting, 0 timeouts"},
		{"§8.3 negative DestroyedMemory never forgets", func(t *testing.T) string {
			steps := [][]rtype.Message{{rtype.DestroyEntity{ServerTick: 2, NetworkID: 1, Reason: 1}}}
			steps = append(steps, repeat(100, snapshot(3, 1))...) // 10 s
			return queried(t, ClientConfig{DestroyedMemory: -1}, steps...)
		}, "0 queries"},
		{"§7.4 negative DestroyedMemory still asks once", func(t *testing.T) string {
			return queried(t, ClientConfig{DestroyedMemory: -1}, repeat(30, snapshot(3, 7))...)
		}, "1 queries"},
		{"negative FrameInterval and TickInterval mean the default", func(*testing.T) string {
			c := ClientConfig{FrameInterval: -1}.withDefaults()
			s := ServerConfig{TickInterval: -1}.withDefaults()
			return fmt.Sprintf("%v %v", c.FrameInterval, s.TickInterval)
		}, fmt.Sprintf("%v %v", DefaultFrameInterval, DefaultFrameInterval)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.run(t); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
