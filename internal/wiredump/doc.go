// Package wiredump decodes R-Type protocol v1 datagrams one at a time and
// writes them in rtypedump's two formats: text, one line per datagram and
// one indented line per message, or JSON, one object per datagram with the
// spec's field names.
//
// [Decode] runs the parser of a datagram's kind (§3): the handshake parser
// (§4), or the connected-packet parser (§5) and then each message's own
// checks (§6 to §8). [Decoded.Object] is a decoded datagram's JSON form and
// [Text] writes its text form. [Sides] follows the connection of each
// client address seen between a server and its clients: [Sides.Decode]
// reads each datagram by the rule of §3 and drops a packet whose connection
// id is not one a Welcome to its client gave, or not the one it took (§5.4), or whose
// sequence its receiver drops (§5.2). [DropKey] names each reason a receiver drops a datagram or a
// message with a key that stays the same whatever the error's text.
package wiredump
