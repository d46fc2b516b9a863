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
// are queued and read by ranging over Events. In steady state neither
// receiving nor sending nor reading events allocates. [Hooks] see every datagram either side
// receives or sends, for tools that count, log or capture traffic, or
// simulate loss.
//
// A [SendFunc] and the hooks run inside the method that sends or receives:
// they must not call back into the same Client or Server.
//
// # Configuration
//
// [ClientConfig] and [ServerConfig] hold protocol and game policy only;
// [RunOptions] holds what the UDP bindings need, the tick or frame time
// and the shutdown grace. The zero value of each is the default, and one
// rule gives every field its meaning: 0 means the default; a negative
// value switches the feature off where off has a meaning, as each field
// says (GiveUp, ServerTimeout, InactivityTimeout, SnapshotInterval,
// SendBudget, ShutdownGrace; QueryRetry and ExpireUnlisted are off by
// default); a field that has no off, a bound such as MaxPlayers,
// MaxEntities or EventQueue, or the Interval of a loop, takes a negative
// value as out of range and uses the default, as for 0. What the spec
// fixes, such as a Hello every second (§4.2), is no knob.
//
// # Ending the game
//
// [Server.Shutdown] destroys every entity with DestroyEntity reason 4, game
// ended (§8.3), and [RunServerConn] runs it when its context is done, so that
// no client keeps a world that no longer exists. Each [EventPlayerLeft]
// carries the connection's final counters.
//
// # Beyond the limitations of version 1
//
// Without changing one byte of the wire format, the server fixes what §13
// lists; each fix is on by default and, but for the second, can be
// switched off in [ServerConfig]:
//
//   - reliable entity state (§5.2, §13.4): for every player the server
//     keeps what its client is known to hold against what the world holds,
//     and sends what differs, CreateEntity or DestroyEntity, again when the
//     client's ack and ackBits show the last copy lost. Memory is bounded by
//     the world, not by the rate of spawns: a stall shorter than the
//     inactivity timeout loses nothing and closes nothing, and a new
//     player's world streams from the world table however large it is;
//   - a lost Welcome is answered again (§13.2): every valid Hello gets one,
//     since the server keeps no state per Hello to tell a repeated one;
//   - silent connections are closed after an inactivity timeout (§13.3);
//   - a valid Hello to a full server is answered with Rejected (§13.1), and
//     every table the network can grow is bounded.
//
// A Hello takes no player slot, joins nobody and leaves no state behind:
// the connection id of the Welcome is a MAC (HMAC-SHA256) of the client's
// address and port and of a 5-second time window, under a key only the
// server knows (ServerConfig.ValidationKey), in the manner of TCP SYN
// cookies. A connection opens, and its player joins, with the first valid
// connected packet whose id verifies for its sender's address in the
// current or the previous window, so that spoofed Hellos (§12) can neither
// fill the server, nor evict a real client's Welcome, nor put players in
// the game. Every valid Hello is answered with one Welcome, a repeated one
// too (§13.2), and a late packet of a connection that closed does not open
// it again: only a sequence of 64 or less opens a connection, and the
// connections closed in the last 10 s are refused.
//
// A client welcomed while a slot was free may find every slot taken when
// its first packet arrives. Version 1 has no message that tells a client
// to wait after its Welcome, and one that hears nothing times out
// believing it was connected; what it receives is all it can go by. Such a
// client therefore waits in a queue of MaxPlayers entries
// ([Server.NumWaiting]) and is answered one empty connected packet for
// each valid packet it sends, which keeps it connected and, carrying no
// Snapshot, shows it is not playing yet; the oldest joins at the Tick after
// a slot frees. A client that finds the queue full too is answered
// Rejected (§4.4).
//
// A [Client] is Connecting until a Welcome, Waiting until the server sends
// the world (a full server may keep it there, answering its packets, or
// send Rejected), then Playing. With ClientConfig.ExpireUnlisted it removes
// the entities that Snapshots stopped listing: the ghosts a lost
// DestroyEntity leaves with a version 1 server (§13.4).
//
// # Spoofed connections (§12)
//
// Version 1 says connection ids are sequential and not secret (§12); ours
// are not sequential, and not one byte of the wire changes. An off-path
// attacker cannot guess the id sent to a victim's address (one chance in
// 2³² per try), so it can no longer send a Hello from the victim's spoofed
// address and open a connection bound to it. An attacker on the path, who
// sees the Welcome, can still use its id. The server therefore still gives
// every connection a send budget (ServerConfig.SendBudget, 64 packets):
// once none of the last 64 packets sent to it is acknowledged, it gets no
// more Snapshot, CreateEntity or DestroyEntity, only one empty packet for
// each packet it sends, and the Pong or CreateEntity that answer its Ping
// or QueryEntity, one packet for one; an ack that covers a recent packet
// resumes the world at once. A conforming client acknowledges in every
// packet (§5.1) and never notices. What remains for such an attacker: the
// victim receives about 64 packets of world traffic per spoofed
// connection, and the connection, kept alive by a 16-byte packet now and
// then, holds a player slot until the inactivity timeout (§13.3); with the
// server's sequence numbers, which it sees too, it can forge acks that
// keep the world flowing. Only a protocol change (a secret the client
// proves in every packet) closes this.
package session
