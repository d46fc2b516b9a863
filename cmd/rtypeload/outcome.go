package main

import "github.com/rtypeproto/rtype/session"

// outcome is how a bot's run went.
type outcome uint8

const (
	// played: the bot got the world and kept its session to the end.
	played outcome = iota
	// noWorld: no Snapshot ever came: no Welcome, Rejected, kept waiting.
	noWorld
	// lost: the bot got the world, then lost its connection.
	lost
)

// outcome says how the bot's run went, and why when it failed, from what
// freeze found.
func (b *bot) outcome() (outcome, string) {
	fail := noWorld
	if b.snapshots > 0 {
		fail = lost
	}
	if b.err != nil {
		return fail, "socket failed: " + b.err.Error()
	}
	switch b.state {
	case session.Playing:
		if b.snapshots == 0 {
			return noWorld, "no Snapshot, only entity messages (§8.1)"
		}
		if b.stalled {
			return lost, "no Snapshot for the last second or more (§10)"
		}
		return played, ""
	case session.Idle, session.Connecting:
		return noWorld, "no Welcome (§4.2)"
	case session.Waiting:
		return noWorld, "welcomed, never sent the world (§10)"
	}
	switch b.reason {
	case session.CloseRejected:
		return noWorld, "rejected (§4.4)"
	case session.CloseGaveUp:
		return noWorld, "no Welcome, gave up (§4.2)"
	case session.CloseTimeout:
		return fail, "server silent, timed out (§13.3)"
	}
	return fail, "closed: " + b.reason.String()
}
