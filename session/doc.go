// Package session runs R-Type protocol v1 connections over the codec of
// package rtype, for a [Client] and a [Server]: the handshake (§4), sequence
// numbers and acknowledgements (§5.2), the server checks (§5.4), the
// messages of §7 and §8 and the session flow of §10. Section numbers (§)
// refer to the protocol specification, version 1, which docs/protocol.md
// in this repository restates, one heading per section; §13.1 to §13.5 are
// the five known limitations of §13, in its order.
//
// # Sans-I/O
//
// Neither side touches a socket or a clock: datagrams enter through Receive
// with the sender's address and the current time and leave through the
// [SendFunc] given to the constructor; time moves only when the caller passes
// a later now. The same code runs over UDP (package host, [RunClient]) and in
// a deterministic in-memory network. In steady state, receiving, sending and
// reading events do not allocate. A [SendFunc] runs inside the calling
// method and must not call back into the same Client or Server.
//
// # Observing a side
//
// Each way of watching a Client or a Server has one use:
//
//   - Events, ranged over once per tick or frame, are what the game acts
//     on: a player joined or left, an Input was accepted, an entity was
//     created, moved or destroyed, a Pong measured a round trip. Reading an
//     event removes it.
//   - [ClientStats], [ServerStats] and [Server.ConnStats] are what metrics
//     read: counters and histograms (round trips, Snapshot sizes) the side
//     keeps for itself, those both sides count in the [Counters] they
//     embed: plain values copied at any time between calls; package host
//     sums them over its matches.
//   - A [Tracer] is for traces, such as qlog's: every datagram received,
//     sent, lost or dropped by rule, every state change and RTT sample, as
//     it happens. It costs per datagram, and nothing when nil.
//   - [Hooks] see the raw datagrams of a UDP binding ([RunOptions], a
//     host's match) before any check, to capture them (package pcap) or
//     drop some as a lossy link would.
//
// # Configuration
//
// [ClientConfig] and [ServerConfig] hold protocol and game policy;
// [RunOptions] the client binding's frame time and hooks. One rule holds for
// every knob of theirs and of host.Config: 0 means the default, and [Off]
// (any negative value) turns off a knob that has an off: the timeouts
// (GiveUp, ServerTimeout, InactivityTimeout), SnapshotInterval, SendBudget,
// the improvements of §13 (the [Feature]s ReliableEvents and Rejected),
// QueryRetry and ExpireUnlisted (off by default), a host's ShutdownGrace.
// A knob without an off, a bound (MaxPlayers, MaxEntities, EventQueue) or
// a loop's Interval, takes its default for Off too. What the spec fixes,
// such as a Hello every second (§4.2), is no knob.
//
// # Ending the game
//
// [Server.Shutdown] destroys every entity with DestroyEntity reason 4, game
// ended (§8.3), and a host runs it when its context is done, so no
// client keeps a world that no longer exists. [Server.Close] then closes
// every connection and is final: the server answers nothing after it.
// After each [EventPlayerLeft], [Server.ConnStats] gives the connection's
// final counters.
//
// # Beyond the limitations of version 1
//
// With the wire format unchanged, the server fixes what §13 lists, each fix
// on by default and all but the second switchable off in [ServerConfig]:
//
//   - reliable entity state (§5.2, §13.4): per player, the server resends
//     the CreateEntity or DestroyEntity the acks show lost, in memory
//     bounded by the world, not the rate of spawns: a stall shorter than the
//     inactivity timeout loses and closes nothing, and a new player's world
//     streams from the world table however large;
//   - a lost Welcome is answered again (§13.2): every valid Hello gets one,
//     since the server keeps no per-Hello state;
//   - silent connections are closed after an inactivity timeout (§13.3);
//   - a valid Hello to a full server gets Rejected (§13.1), and every table
//     the network can grow is bounded.
//
// # Admission
//
// A Hello takes no slot and leaves no state: the Welcome's connection id is
// an HMAC-SHA256 of the client's address and port and a 5-second window,
// under a key only the server knows (ServerConfig.ValidationKey), like TCP
// SYN cookies. A connection opens, and its player joins, with the first
// valid connected packet whose id verifies for its sender in the current or
// previous window, so spoofed Hellos (§12) cannot fill the server, evict a
// real client's Welcome or add players. Only a sequence of 64 or less opens
// a connection, and connections closed in the last 10 s are refused, so a
// late packet never reopens one.
//
// Version 1 cannot tell a welcomed client to wait, and one that hears
// nothing times out believing it was connected. A client welcomed while a
// slot was free whose first packet finds none therefore waits in a queue of
// MaxPlayers entries ([Server.NumWaiting]), answered one empty connected
// packet per valid packet: that keeps it connected and, with no Snapshot,
// shows it is not playing yet. The oldest joins at the Tick after a slot
// frees; one that finds the queue full too gets Rejected (§4.4).
//
// A [Client] is Idle until its first Update, Connecting until a Welcome, Waiting until the server sends
// the world (a full server may keep it there, answering its packets, or send
// Rejected), then Playing. ClientConfig.ExpireUnlisted removes the entities
// Snapshots stopped listing: the ghosts a lost DestroyEntity leaves with a
// version 1 server (§13.4).
//
// # Spoofed connections (§12)
//
// §12 calls connection ids sequential and not secret; ours are not
// sequential, with the wire unchanged. An off-path attacker cannot guess the
// id sent to a victim's address (2⁻³² per try), so cannot bind a connection
// to it with a spoofed Hello. An on-path attacker sees the Welcome and can
// use its id, so each connection has a send budget (ServerConfig.SendBudget,
// 64 packets): once none of the last 64 packets sent to it is acknowledged,
// it gets no world, only one packet per packet it sends, until an ack
// covers a recent one. A conforming client acks every packet (§5.1) and
// never notices. What remains: the victim gets about 64 world packets per
// spoofed connection; the connection, kept alive by a 16-byte packet now and
// then, holds a slot until the inactivity timeout (§13.3); and acks forged
// from the server's sequences, seen on the path, keep the world flowing.
// Only a protocol change (a secret the client proves in every packet)
// closes this.
package session
