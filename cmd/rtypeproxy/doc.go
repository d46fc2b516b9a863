// Command rtypeproxy stands between R-Type clients and a server as a
// network would, with its impairments, and shows the traffic decoded with
// what it did to each datagram.
//
// Usage:
//
//	rtypeproxy -listen ADDR -server ADDR [impairments] [-log text|json|none] [-pcap FILE] [-seed N]
//
// Clients send to -listen (default :4243). Each client address gets its own
// upstream socket, so that the server sees one address per client, as it
// would without the proxy. At most -max-clients (default 64, at most
// 4096, each costing about 64 KiB) are served at once. A further new
// address takes the place of the longest-silent client that the server
// never answered, which is evicted, and so does one for which the system
// has no socket left; if every client got an answer, its datagrams are dropped and counted, so
// that no client the server answered is ever pushed out. A client silent
// for -idle (default 30s) in both directions, with no datagram still
// delayed, is forgotten and its socket closed, which makes room too. The
// totals of the clients forgotten or evicted are summed once nothing of
// theirs waits. Datagrams of any size and content are forwarded: the proxy
// is a network, not a validator.
//
// Each impairment X is given as -X for both directions, -up-X for client to
// server and -down-X for server to client; a per-direction flag overrides
// -X, which overrides -profile, wherever they stand on the command line:
// loss, burst (Gilbert–Elliott loss bursts), delay, jitter, reorder,
// reorder-delay, dup, rate, queue and blackout. -h lists them with the
// profiles and their figures. Client number i, counted in order of first
// datagram, draws from its own seed in each direction, the same draws for
// each datagram: for a given -seed and order of datagrams, the loss,
// duplication and reordering decisions repeat. Queue drops, blackouts and
// the delays also depend on when the datagrams arrive (and a datagram lost
// to a blackout does not step the state of the loss bursts).
//
// The log (-log text, the default) is rtypedump's text format, one line per
// datagram with its messages indented below, from the client to the server
// or back as if there were no proxy. Each datagram is read as rtypedump
// reads a capture, by the phases of §3 and the checks of §5.4 and §5.2, as
// its receiver gets it. A datagram the proxy drops never reaches it, so it
// moves neither its connection's phase nor its window (a dropped
// Disconnect closes nothing). One from the server is read at its verdict:
// the datagrams of a direction leave in the order they came (unless
// -reorder), so what follows a held Welcome reaches the client after it.
// One to the server that the proxy holds back is read at its verdict
// without the §5.2 window, and moves the connection (its first packet, a
// Disconnect) when it is delivered: until then the server answers in the
// connection. The line ends with the verdict after "=>": forwarded,
// delayed by 103ms, dropped (loss), dropped (blackout), dropped (queue
// full), with ", reordered" or ", duplicated" added. A datagram that had
// its verdict but that the system refused to send gets a line of its own,
// "send failed SRC > DST (N bytes): ERROR". -log json writes rtypedump's
// JSON objects with the fields verdict (forwarded, delayed or dropped),
// reason, delay (milliseconds), reordered and duplicated, and an object
// with verdict "send failed", size and error for a refused send. -log none
// writes nothing.
//
// -pcap FILE writes each datagram as raw IP packets on the two hops the
// proxy stands between, as the wire shows them: on its sender's hop when it
// reaches the proxy (from the client to the proxy's address, or from the
// server to the client's upstream address), and on its receiver's hop when
// the proxy delivers it (from the upstream address to the server, or from
// the proxy to the client). Each hop holds what its two ends sent and
// received; a datagram dropped is on its sender's hop only. rtypedump -port
// with the server's port reads the server's hop, with the proxy's port the
// clients' hop.
//
// Delayed datagrams wait on a timer heap whose buffers hold 16 MiB at most:
// past that a datagram is dropped ("memory bound"), so that memory stays
// bounded whatever arrives. On Ctrl-C or SIGTERM the proxy prints, on
// standard error, each client's totals per direction: datagrams in and
// out, drops by reason, duplicates and the mean delay added. Its lines fit
// the terminal's width, or 80 columns when standard error is no terminal
// ($COLUMNS, when set, for a pipe or a file): a direction's line too long
// goes on under its first count, any other line four columns in. The log,
// one line per datagram, is never wrapped.
//
// Exit status: 0 after Ctrl-C or SIGTERM; 1 when it cannot start (address
// in use, server not resolved) or the pcap file could not be written
// whole; 2 for bad command-line usage. -h prints the usage on standard
// output and exits 0.
package main
