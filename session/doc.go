// Package session runs R-Type protocol v1 connections on top of the codec of
// package rtype: the handshake (§4), sequence numbers and acknowledgements
// (§5.2), the server checks (§5.4), the messages of §7 and §8 and the session
// flow of §10, for both a [Client] and a [Server].
//
// # Sans-I/O
//
// Neither side touches a socket or a clock. Datagrams go in through Receive
// with the sender's address and the current time; datagrams come out through
// the [SendFunc] given to the constructor; time only moves when the caller
// passes a later now. The same code therefore runs over a real UDP socket
// ([RunServer], [RunClient]) and in a deterministic in-memory network.
//
// Decoded events for the game (a player joined, an Input was accepted, an
// entity was created, moved or destroyed, a Pong measured a round trip …)
// are queued and read with Poll or Events. In steady state neither
// receiving nor sending allocates. [Hooks] see every datagram either side
// receives or sends, for tools that count, log or capture traffic, or
// simulate loss.
//
// A [SendFunc] and the hooks run inside the method that sends or receives:
// they must not call back into the same Client or Server.
//
// # Ending the game
//
// [Server.Shutdown] destroys every entity with DestroyEntity reason 4, game
// ended (§8.3), and [ServeConn] runs it when its context is done, so that
// no client keeps a world that no longer exists. Each [EventPlayerLeft]
// carries the connection's final counters.
//
// # Beyond the limitations of version 1
//
// Without changing one byte of the wire format, the server fixes what §13
// lists; each fix is on by default and can be switched off in
// [ServerConfig]:
//
//   - reliable entity state (§5.2, §13.4): for every player the server
//     keeps what its client is known to hold against what the world holds,
//     and sends what differs, CreateEntity or DestroyEntity, again when the
//     client's ack and ackBits show the last copy lost. Memory is bounded by
//     the world, not by the rate of spawns: a stall shorter than the
//     inactivity timeout loses nothing and closes nothing, and a new
//     player's world streams from the world table however large it is;
//   - a lost Welcome is answered again (§13.2);
//   - silent connections are closed after an inactivity timeout (§13.3);
//   - a valid Hello to a full server is answered with Rejected (§13.1), and
//     every table the network can grow is bounded.
//
// A Hello takes no player slot and joins nobody: a connection opens, and
// its player joins, with the first valid connected packet after the
// Welcome, so that spoofed Hellos (§12) can neither fill the server nor
// put players in the game; the Welcomes sent meanwhile are kept in a table
// of MaxHalfOpen entries, the oldest forgotten first.
//
// # Spoofed connections (§12)
//
// Connection ids are sequential and not secret (§12): an attacker who
// opened a connection of its own can guess the id the server gives next,
// send a Hello from a victim's spoofed address, then a packet with that id,
// and the server opens a connection bound to the victim. Version 1 cannot
// tell this apart from a real client. The server therefore gives every
// connection a send budget (ServerConfig.SendBudget, 64 packets): once
// none of the last 64 packets sent to it is acknowledged, it gets no more
// Snapshot, CreateEntity or DestroyEntity, only one empty packet for each
// packet it sends, and the Pong or CreateEntity that answer its Ping or
// QueryEntity, one packet for one; an ack that covers a recent packet
// resumes the world at once. A conforming client acknowledges in every
// packet (§5.1) and never notices. What remains: the victim receives about
// 64 packets of world traffic per spoofed connection, and the connection,
// kept alive by a 16-byte packet now and then, holds a player slot until
// the inactivity timeout (§13.3); an attacker that also guesses the
// sequence numbers the server sends the victim, which are predictable too,
// can forge acks that keep the world flowing. Only a protocol change (a
// secret in the handshake) closes this.
package session
