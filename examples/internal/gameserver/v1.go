package gameserver

import "github.com/rtypeproto/rtype/session"

// V1 returns the session configuration of a server that behaves as
// version 1 describes (§13): every CreateEntity and DestroyEntity is sent
// once and never again (§13.4), and a Hello to a full server gets no
// answer instead of Rejected (§13.1). Clients and tools that must cope with
// such a server (§13: "a new client must nevertheless cope with them") can
// be tried against it. The Welcome resend and the timeouts stay on: they
// change no message a client receives from a live connection.
func V1() session.ServerConfig {
	return session.ServerConfig{ReliableEvents: session.Off, Rejected: session.Off}
}
