// Command rtypedump decodes R-Type protocol v1 traffic from a packet capture
// or from hex, one datagram at a time.
//
// Usage:
//
//	rtypedump [-json] [-stats] [-qlog DIR] [-port N] capture.pcap
//	rtypedump -hex [-kind packet|handshake] [-json] [-stats] [file.hex]
//
// A capture is a pcap or pcapng file; its format is detected from its magic
// number. The server is the address that answers a Hello with a Welcome
// (§4.2, §4.3); in a capture without one, begun mid-session, the port that
// most valid connected packets name (16 bytes or more, a connection id not
// 0, a framing that parses, §5.1, §5.3), a packet naming its destination,
// or its source when it carries only server message types (§6), ties going
// to the lower port; a note on standard error says so. -port N names it
// instead ("auto", the default, finds it). A file is read twice, a first
// pass finding the server; a stream read once holds its datagrams back, 8
// MiB at most, until a Welcome answers a Hello, then decides on what it
// saw, and a server that shows only past them is decoded from there, a note
// naming the first record decoded. Every UDP datagram to or from the
// server's port is decoded with the rule of §3, per client address (wiredump.Sides):
// handshake datagrams (§4) until a valid Welcome went to that address;
// connected packets (§5) after it, but for a valid handshake datagram (a
// Hello repeated after a lost Welcome, a second Welcome, a Rejected) until
// the client sent a packet the server keeps, whose id, one of the last 4
// welcomed, is the connection's from then on (§4.2, §4.3, §13); handshake
// datagrams again once the server kept a Disconnect of the client, which
// closes the connection at once (§7.3), but for the server's packets until
// a new Welcome, which the client, gone, drops. A packet between the server
// and a welcomed client whose connectionId is none a Welcome gave, or not
// the one the client took, is dropped (§5.4), in either direction:
// the server has no connection of that id bound to the client's address,
// and the client drops a packet whose id is not its own. So is a packet
// whose sequence is a duplicate or too old in the receiver's window of its
// direction (§5.2). Only 65,536 addresses are remembered, so that any
// capture is read in bounded memory: past them, the one least recently
// welcomed or heard from is forgotten, connected ones last. The file name "-" reads
// the capture from standard input. A capture without an R-Type client
// (no Hello answered by a Welcome, no connected packet; with -port, none
// on that port) gets a note on standard error saying what it holds: its
// UDP datagrams and ports, the Hellos no Welcome answered.
//
// With -hex the input holds one datagram per line in hex; spaces and tabs
// are ignored and '#' starts a comment. It is read from the named file or,
// without one, from standard input. -kind says which parser every line goes
// through: packet (the default) or handshake; without -hex it is refused,
// since a capture's datagrams take their kind from §3.
//
// Each datagram is printed as a line, followed by one indented line per
// message. With -json each datagram is one JSON object on one line, with the
// spec's field names: n (the capture's frame number, or the datagram's
// number in hex input), time, src and dst for captures, kind, valid, error
// when a receiver would drop the datagram, the header fields, and messages,
// each with type (its catalog name or "unknown"), typeId, size, valid,
// ignored for a type outside the catalog, type 0 included, which a receiver
// skips while it keeps the packet (§6), error when a receiver would drop the
// message, and its payload fields. Positions are in pixels (§9.1), rotations
// in radians (§9.2), and a CreateEntity whose entityType is a known
// blueprint has its name in archetype (§9.3).
//
// -report FILE.html writes an HTML report of each client of a capture or
// of .sqlog traces; -watch replays a capture's game in the terminal, as one
// client saw it (README.md). Both, -qlog and -stats exit 1 on a capture
// without an R-Type client, saying what it holds, and write nothing.
//
// -qlog DIR writes, instead of the datagrams, one qlog trace per client
// address into DIR (docs/trace.md), from the vantage point network.
//
// -stats prints, after the datagrams, the totals of each connection: datagrams
// and bytes in each direction, messages by type, drops by reason under a
// stable key (wiredump.DropKey; README.md lists them, "other" for an error
// without a key of its own), and the loss the acknowledgements reveal
// (§5.1): of the sequences the peer's acks covered, how many no ack
// reported received ("ack loss 1 of 5 sequences"); an ack counts when it
// comes within 64 sequences of the packet it reports on. The first 4096
// connections get a row each; any further ones are summed in one row,
// "other addresses" ("other connections" with -hex). The totals' lines fit
// the terminal's width, or 80 columns when standard output is no terminal
// ($COLUMNS, when set, for a pipe or a file): a line too long goes on under
// its first item. The datagrams' lines, one per datagram, are never
// wrapped.
//
// Input read with the wrong flags gets a hint on standard error: an input
// that is no capture but reads as hex datagrams suggests -hex (with -kind
// handshake when most of them begin with the handshake magic, §4.1), and
// hex datagrams read as packets that are no valid packet and begin with
// the handshake magic suggest -kind handshake.
//
// Exit status: 0 when the whole input was read, whatever the datagrams held;
// 1 when -report, -watch, -stats or -qlog found no R-Type client, or when
// the input could not be read to its end (unreadable file, not a
// capture, truncated capture), after printing every datagram before the
// fault and a one-line error naming its position on standard error, or when
// a hex line was not hex, each such line reported and skipped and the lines
// after it decoded; 2 for bad command-line usage. -stats totals cover
// everything read, also when the input broke off. -h prints the usage on
// standard output and exits 0.
package main
