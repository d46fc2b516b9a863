package wiredump

import "github.com/rtypeproto/rtype"

// decodeHandshake decodes a handshake datagram (§4) with the library's
// parser, which applies every rule of §4.1 to §4.4 and the 548-byte limit of
// §2.2.
func decodeHandshake(b []byte) Decoded {
	d := Decoded{Kind: Handshake, Data: b}
	t, id, err := rtype.ParseHandshake(b)
	if err != nil {
		d.Err = err
		return d
	}
	d.Handshake, d.ConnectionID = t, id
	return d
}

// handshakeFields lists the fields of a valid handshake datagram.
func handshakeFields(o Object, d *Decoded) Object {
	o = o.Add("type", d.Handshake.String())
	if d.Handshake == rtype.HandshakeWelcome {
		o = o.Add("connectionId", d.ConnectionID)
	}
	return o
}
