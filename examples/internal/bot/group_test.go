package bot

import (
	"net"
	"testing"
	"time"
)

// A bot of a group that waits for the world gives up as soon as another
// bot of the group is done playing, long before its own Duration.
func TestGroupWaitingBotGivesUp(t *testing.T) {
	t.Parallel()
	conn, stop, done := startServer(t)
	defer func() { stop(); <-done }()
	silent := welcoming(t, 3, nil)
	g := NewGroup()
	player := New(Config{Server: conn.LocalAddr().(*net.UDPAddr).AddrPort(), Name: "player", Duration: 300 * time.Millisecond, Group: g})
	waiter := New(Config{Server: silent, Name: "waiter", Index: 1, Duration: time.Minute, Group: g})
	played := make(chan Result, 1)
	go func() { played <- player.Run(t.Context()) }()
	w := runWithin(t, waiter, 10*time.Second)
	p := <-played
	if !p.OK() {
		t.Fatalf("player: %s: %s", p.Status(), p.Why())
	}
	if w.Status() != "waiting" || w.Err != nil {
		t.Fatalf("waiter: status %q, err %v; want waiting", w.Status(), w.Err)
	}
}

// Without a group nothing is ever over.
func TestNilGroup(t *testing.T) {
	var g *Group
	g.leave()
	if g.over() {
		t.Fatal("a nil group is over")
	}
	g = NewGroup()
	if g.over() {
		t.Fatal("a new group is over")
	}
	g.leave()
	g.leave()
	if !g.over() {
		t.Fatal("a group is not over after a bot left")
	}
}
