package main

import "github.com/rtypeproto/rtype"

// decodeHandshake decodes a handshake datagram (§4) with the library's
// parser, which applies every rule of §4.1 to §4.4 and the 548-byte limit of
// §2.2.
func decodeHandshake(b []byte) decoded {
	d := decoded{kind: kindHandshake, size: len(b), data: b}
	t, id, err := rtype.ParseHandshake(b)
	if err != nil {
		d.err, d.errBase = err, err
		return d
	}
	d.handshake, d.connectionID = t, id
	return d
}

// handshakeFields lists the fields of a valid handshake datagram.
func handshakeFields(o object, d decoded) object {
	o = o.add("type", d.handshake.String())
	if d.handshake == rtype.HandshakeWelcome {
		o = o.add("connectionId", d.connectionID)
	}
	return o
}
