// Package host runs many matches in one process: each match is its own
// game and [session.Server] on its own UDP port, the first at
// [Config.Addr]'s port and the next ones on the ports that follow, which is
// how fleets such as Agones place game servers (docs/hosting.md).
//
// A version 1 match is one server of up to four players (§10); a machine
// holds hundreds. The host keeps their cost near what the kernel charges
// for the datagrams themselves:
//
//   - as few tick loops as there are cores ([Config.Loops]), each ticking
//     its share of the matches every [Config.Interval], not a timer or a
//     goroutine per match, on a fixed schedule: a loop that stalls runs the
//     ticks it missed at once, so that every match keeps §10's rate;
//   - each match's socket drained once per tick, before its game tick,
//     with one system call per batch of datagrams (recvmmsg and sendmmsg on
//     Linux amd64 and arm64; a call per datagram elsewhere on Unix; other
//     systems are not supported), allocating nothing per datagram. Inputs
//     are only used at the tick anyway (§7.1); the price is that a Pong waits for the next tick, up to one Interval (16.7 ms at
//     §10's 60 ticks a second) added to the RTT a client measures (§7.2);
//   - everything bounded: a match reads at most [Config.ReadsPerTick]
//     batches a tick, the rest waiting in (or dropped by) the kernel's
//     buffer, and a loop's buffers serve all its matches.
//
// A match's socket may be another's than the system's UDP: [Config.Listen]
// opens each on any [session.PacketConn], such as an in-memory network's
// (package rtypetest), read by a goroutine of its own into a fixed pool
// that the loop drains at the tick as it drains a UDP socket. Inside a
// testing/synctest bubble the host then runs in virtual time, loop, ticks
// and shutdown as on UDP. [Config.Conns] are sockets the caller opened,
// one per match: a host of one match on its own socket is Conns of one.
//
// A match whose game panics is closed, its socket too, and logged; the
// other matches play on. [Host.ReadMetrics] sums the counters and
// histograms each match's session server keeps ([session.ServerStats])
// for an exporter such as Prometheus's (package host/prom), as each
// match's last tick left them, copied by its loop: a reader never waits
// for a tick.
//
// The host is a library: it reads no flags and serves no HTTP. Package
// host/hostcmd makes a server command's operations flags: the address and
// number of matches, the log level, a qlog trace per client, a capture
// file and, with a handler such as host/prom's, the metrics over HTTP.
package host
