// Package udpbuf sizes the buffers datagrams are read into, for every
// reader of a UDP socket in the repository: session's bindings, the
// host's sockets and the batches of internal/mmsg. It builds on every
// platform, so that session, which does, can use it.
package udpbuf

import "github.com/rtypeproto/rtype"

// Size is the room to read one datagram into: one byte over the largest
// datagram of §2.2, so that a larger one reads as Size bytes and is
// dropped whole rather than cut to a valid-looking prefix.
const Size = rtype.MaxDatagramSize + 1
