// Package conformance checks that an R-Type v1 server or client, written in
// any language, follows the protocol specification: every rule observable
// from the other side of the wire is one [Case], with an id made of its
// section and a number ("5.2/3"), a [Level], and the requirement in the
// spec's words.
//
// In server mode the suite plays the clients: each case opens fresh UDP
// sockets, so fresh addresses, crafts its datagrams with package rtype
// (including the ones a server must drop), judges what comes back, and
// leaves with Disconnect. In client mode it plays the server: it listens
// on a loopback port, starts a fresh client for each case with a [Client],
// scripts the server's side and judges what the client sends.
//
// A case that cannot meet its precondition (a full server, no Bydos ever
// spawned, a client that never queries) is skipped with the reason. A
// failed MUST case fails the run; SHOULD and GAME cases fail it only in
// strict mode; BEYOND cases, the fixes of §13's known limitations, are
// reported and never fail a version 1 implementation.
//
// [RunServer] and [RunClient] return a [Report], written as text, JSON or
// JUnit XML; [TestServer] and [TestClient] run the cases as subtests of a
// Go test. The command rtypecheck (cmd/rtypecheck) runs them from a shell.
//
// The suite never hangs and never crashes on what the implementation
// sends: every wait has a deadline, each case its own time limit, and
// every table filled from the network is bounded.
package conformance
