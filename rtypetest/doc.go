// Package rtypetest is the kit for testing an R-Type v1 game, server or
// client, without a real network: in-memory networks with the impairments
// of package netem (loss in bursts, delay, jitter, reordering, duplication,
// a rate cap, blackouts, partitions), each direction drawing its randomness
// from the network's seed, captures of what crossed them as pcap files,
// reference configurations that behave as version 1 describes, seeds and
// shapers for fuzzing, and a comparison of a client's world with the
// server's. Section numbers (§) refer to the protocol specification,
// version 1, restated in docs/protocol.md.
//
// # Two networks
//
// A [Sim] drives sans-I/O endpoints, session's [session.Server] and
// [session.Client] or any implementation with a Receive and a SendFunc,
// on its own clock: no goroutine, and [Sim.Advance] delivers what is due in
// a fixed order, so a run repeats exactly for a seed.
//
// A [Network] gives sockets, [Conn]s, to code that owns goroutines: the
// a host (package host) and [session.RunClientConn], or a
// user's server loop. It uses package time for its delays, so inside a
// testing/synctest bubble it runs in virtual time: a minute of play takes
// a fraction of a second of wall time.
//
// # Failing runs
//
// [CaptureOnFailure] writes what crossed a network as a pcap file when the
// test failed, for rtypedump or Wireshark with tools/wireshark/rtype.lua.
package rtypetest
