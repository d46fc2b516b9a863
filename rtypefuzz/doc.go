// Package rtypefuzz looks for the datagrams that crash or hang an R-Type
// protocol v1 implementation, in any language, and hands back a
// reproducer: the engine of rtypecheck fuzz, and the same in memory for a
// Go implementation's tests.
//
// It is stateful and protocol-aware: it opens real sessions (Hello,
// Welcome, a player in the game) and sends, from inside them, datagrams
// mutated at every layer (§3 to §8): handshake bytes, header fields,
// framing, payload fields at their edges, lengths from 0 to past the 548
// bytes of §2.2. Every datagram from an untrusted source must leave an
// implementation standing (§12); one that stops answering, answers an
// invalid datagram from an unconnected address, or sends what the
// specification forbids is a finding, shrunk to the fewest datagrams that
// still trigger it: none when the implementation's own traffic breaks the
// rule. Its capture holds the session from its opening, for rtypedump and
// Wireshark; a replay keeps the recorded times.
//
// A run first walks the catalogue of edges, each once (the edge pass),
// then draws at random; a mutation that may end the session is its last.
// The n-th datagram is a function of Options.Seed and n, whatever the
// implementation's speed, and a run against a server paces itself to
// what the server acknowledges having read (§5.1), so that a slow server
// drops none of them unread.
//
// One engine runs both sides, behind a role: against a server
// (FuzzServer) the fuzzer plays its clients; against a client
// (FuzzClient) it plays the server, starting a client for each session.
package rtypefuzz
