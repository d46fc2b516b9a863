package session

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each side's kinds and a server connection's states are named from 1,
// without the prefix of their constants; 0 and a value past the last are
// shown as numbers of their type.
func TestSideNames(t *testing.T) {
	var got []string
	for k := range ClientEventKind(EventEntityExpired + 2) {
		got = append(got, k.String())
	}
	for k := range ServerEventKind(EventQueryEntity + 2) {
		got = append(got, k.String())
	}
	for s := range ConnState(ConnClosed + 2) {
		got = append(got, fmt.Sprint(s))
	}
	want := []string{
		"ClientEventKind(0)", "Connected", "Rejected", "TimedOut", "EntityCreated", "Snapshot",
		"EntityDestroyed", "Pong", "Playing", "EntityExpired", "ClientEventKind(10)",
		"ServerEventKind(0)", "PlayerJoined", "PlayerLeft", "Input", "QueryEntity", "ServerEventKind(5)",
		"ConnState(0)", "Waiting", "Playing", "Closed", "ConnState(4)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("names (-want +got):\n%s", d)
	}
}
