// Command stepwise is an R-Type v1 server built the way a newcomer builds
// one from the specification, one stage at a time, with nothing but the
// codec package rtype and a UDP socket. Each stage is complete and correct
// for what it claims, so that rtypecheck's report against it shows exactly
// the rungs built so far passing:
//
//  1. handshake: a valid Hello gets a Welcome with the next connection id,
//     from 1 (§4.2, §4.3, §12); any invalid handshake datagram is dropped
//     silently (§4.2). Connected packets get nothing.
//  2. packets: connected packets are checked (§5.4: short, wrong
//     connection id, wrong address, duplicate or too old by §5.2) and
//     framed (§5.3); each one accepted is answered at once by a packet
//     with no message, numbered from 1 and acknowledging what was received
//     (§5.1, §5.2). Messages are not read yet: no Pong. Later stages keep
//     this answer and put in it what the packet's messages call for.
//  3. ping: a Ping gets a Pong with its timestamp (§7.2, §8.4); Disconnect
//     closes the connection at once (§7.3).
//  4. ship: a game of up to 4 ships (§10): each new player gets the world
//     and its ship, created for everyone (§8.2, §9.3); Inputs move the ship
//     (§7.1); a Snapshot goes to every connection every 3 ticks at 60 ticks
//     a second (§8.1); QueryEntity is answered (§7.4); Disconnect destroys
//     the ship for the others with reason 3 (§7.3, §8.3). No missiles and no
//     Bydos: the Shoot bit is ignored.
//
// With -crash-after-snapshot (stage 4), the server prints a panic line and
// exits with status 2 right after its first Snapshot, as a server dying of
// an uncaught exception would.
//
// Usage:
//
//	go run ./examples/stepwise -stage 1 [-addr 127.0.0.1:4242]
//	go run ./examples/stepwise -stage 4 -crash-after-snapshot
//
// -stage defaults to 4, the whole server. The first line on standard error
// is "listening on ADDR", the address bound, so that -addr 127.0.0.1:0 can
// be read back.
//
// At most 64 connections are kept; a Hello when all are taken evicts the
// connection heard from least recently, since v1 has no timeout (§13) and
// stages 1 and 2 never close one. Beyond 4 players, a connection is a
// spectator: it gets the world and the Snapshots but no ship, even when a
// slot frees later; the next player to join takes that slot.
package main
