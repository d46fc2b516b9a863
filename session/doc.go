// Package session runs R-Type protocol v1 connections over the codec of
// package rtype, for a [Client] and a [Server]: the handshake (§4), sequence
// numbers and acknowledgements (§5.2), the server checks (§5.4), the
// messages of §7 and §8 and the session flow of §10.
//
// # Sans-I/O
//
// Neither side touches a socket or a clock: datagrams enter through Receive
// with the sender's address and the current time and leave through the
// [SendFunc] given to the constructor; time moves only when the caller passes
// a later now. The same code runs over UDP ([RunServer], [RunClient]) and in
// a deterministic in-memory network.
//
// Events for the game (a player joined, an Input was accepted, an entity was
// created, moved or destroyed, a Pong measured a round trip …) are read by
// ranging over Events. In steady state, receiving, sending and reading events
// do not allocate. [Hooks] see every datagram either side receives or sends,
// to count, log, capture or drop traffic. A [SendFunc] and the hooks run
// inside the method that sends or receives: they must not call back into the
// same Client or Server.
//
// # Configuration
//
// [ClientConfig] and [ServerConfig] hold protocol and game policy only;
// [RunOptions] holds what the UDP bindings need: the tick or frame time and
// the shutdown grace. In each, 0 means the default; a negative value switches
// the feature off where off has a meaning, as the field says (GiveUp,
// ServerTimeout, InactivityTimeout, SnapshotInterval, SendBudget,
// ShutdownGrace; QueryRetry and ExpireUnlisted are off by default), and means
// the default for a field that has no off (a bound such as MaxPlayers,
// MaxEntities or EventQueue, or a loop's Interval). What the spec fixes, such
// as a Hello every second (§4.2), is no knob.
//
// # Ending the game
//
// [Server.Shutdown] destroys every entity with DestroyEntity reason 4, game
// ended (§8.3), and [RunServerConn] runs it when its context is done, so no
// client keeps a world that no longer exists. Each [EventPlayerLeft] carries
// the connection's final counters.
//
// # Beyond the limitations of version 1
//
// Without changing one byte of the wire format, the server fixes what §13
// lists; each fix is on by default and, but for the second, can be switched
// off in [ServerConfig]:
//
//   - reliable entity state (§5.2, §13.4): per player, the server compares
//     what its client is known to hold with the world and resends the
//     CreateEntity or DestroyEntity whose last copy the client's ack and
//     ackBits show lost. Memory is bounded by the world, not the rate of
//     spawns: a stall shorter than the inactivity timeout loses and closes
//     nothing, and a new player's world streams from the world table however
//     large it is;
//   - a lost Welcome is answered again (§13.2): every valid Hello gets one,
//     since the server keeps no per-Hello state to tell a repeated one;
//   - silent connections are closed after an inactivity timeout (§13.3);
//   - a valid Hello to a full server is answered with Rejected (§13.1), and
//     every table the network can grow is bounded.
//
// A Hello takes no player slot, joins nobody and leaves no state: the
// Welcome's connection id is an HMAC-SHA256 of the client's address and port
// and a 5-second time window, under a key only the server knows
// (ServerConfig.ValidationKey), like TCP SYN cookies. A connection opens, and
// its player joins, with the first valid connected packet whose id verifies
// for its sender in the current or previous window, so spoofed Hellos (§12)
// can neither fill the server, nor evict a real client's Welcome, nor add
// players. A late packet of a closed connection does not reopen it: only a
// sequence of 64 or less opens a connection, and connections closed in the
// last 10 s are refused.
//
// A client welcomed while a slot was free may find every slot taken when its
// first packet arrives. Version 1 cannot tell a welcomed client to wait, and
// one that hears nothing times out believing it was connected, so it waits in
// a queue of MaxPlayers entries ([Server.NumWaiting]) and is answered one
// empty connected packet per valid packet: that keeps it connected and,
// carrying no Snapshot, shows it is not playing yet. The oldest joins at the
// Tick after a slot frees; one that finds the queue full too gets Rejected
// (§4.4).
//
// A [Client] is Connecting until a Welcome, Waiting until the server sends
// the world (a full server may keep it there, answering its packets, or send
// Rejected), then Playing. With ClientConfig.ExpireUnlisted it removes the
// entities Snapshots stopped listing: the ghosts a lost DestroyEntity leaves
// with a version 1 server (§13.4).
//
// # Spoofed connections (§12)
//
// Version 1's connection ids are sequential and not secret (§12); ours are
// not sequential, with the wire unchanged. An off-path attacker cannot guess
// the id sent to a victim's address (one chance in 2³² per try), so it cannot
// open a connection bound to a spoofed address with a Hello. An on-path
// attacker, who sees the Welcome, can use its id, so every connection has a
// send budget (ServerConfig.SendBudget, 64 packets): once none of the last 64
// packets sent to it is acknowledged, it gets no Snapshot, CreateEntity or
// DestroyEntity, only one empty packet per packet it sends and the Pong or
// CreateEntity that answer its Ping or QueryEntity, one for one; an ack that
// covers a recent packet resumes the world at once. A conforming client acks
// in every packet (§5.1) and never notices. What remains: the victim receives
// about 64 packets of world traffic per spoofed connection; the connection,
// kept alive by a 16-byte packet now and then, holds a player slot until the
// inactivity timeout (§13.3); and the attacker, seeing the server's sequence
// numbers, can forge acks that keep the world flowing. Only a protocol change
// (a secret the client proves in every packet) closes this.
package session
