package rtypetest

import "github.com/rtypeproto/rtype/session"

// V1Server returns the configuration of a session server that behaves as
// version 1 describes, §13's limitations included, so that a client's
// author checks that it copes with the original server (§13: "a new client
// must nevertheless cope with them"): every CreateEntity and DestroyEntity
// is sent once (§13.4), a Hello to a full server is dropped, never
// Rejected (§13.1), a silent connection is never closed (§13.3), and no
// send budget holds the world back (§12). Two behaviours cannot be turned
// off, since neither changes what a version 1 client can receive on a live
// connection: every valid Hello gets a Welcome (§13.2 describes the
// opposite, which only a client whose Welcome was lost notices, by
// connecting anyway), and a client welcomed while a slot was free whose
// first packet finds none waits in a queue, answered with empty packets,
// where version 1 would have given it a slot it could not have.
//
// The example game (examples/server, flag -v1) keeps its inactivity
// timeout in version 1 mode; a user's client tried against it in memory
// meets the original protocol but for that.
func V1Server() session.ServerConfig {
	return session.ServerConfig{
		ReliableEvents:    session.Off,
		Rejected:          session.Off,
		InactivityTimeout: session.Off,
		SendBudget:        session.Off,
	}
}

// V1Client returns the configuration of a session client that does what
// version 1 says and nothing more: it asks QueryEntity once per unknown
// id (§7.4), keeps every entity until a DestroyEntity (§1), and never
// times out a silent server, which version 1 does not describe; it gives
// up connecting after 10 s (§4.2).
func V1Client() session.ClientConfig {
	return session.ClientConfig{ServerTimeout: session.Off}
}
