// Package planted holds small R-Type protocol v1 implementations, a
// server and a client, with bugs planted on purpose: the proof that a
// protocol fuzzer finds the crashes and hangs it is meant to find.
//
// They are written the way a C++ author writes a first server: their own
// parsing over the raw bytes with encoding/binary, fixed arrays, a map of
// pointers, and none of the repository's codec or session packages. With
// no bug selected each is careful: it drops what §12 says to drop, bounds
// every table and passes basic play. With a bug selected, one datagram
// that no valid peer sends, and a fuzzer can, makes it fail as a native
// process would: a real panic (index out of range, nil dereference) that
// Serve and Play recover and return as a [Crash], wrapping [ErrCrashed],
// or a hang, where it stops reading and answering.
//
// Section numbers (§) refer to the protocol specification, version 1.
package planted
