// Package conformance checks that an R-Type v1 server or client, written in
// any language, follows the protocol specification: every rule observable
// from the other side of the wire is one [Case], with an id made of its
// section and a number ("5.2/3"), a [Level], and the requirement in the
// spec's words.
//
// In server mode the suite plays the clients: each case opens fresh UDP
// sockets (or sockets of [Options].Network), so fresh addresses, crafts its datagrams with package rtype
// (including the ones a server must drop), judges what comes back, and
// leaves with Disconnect. In client mode it plays the server: it listens
// on a loopback port, starts a fresh client for each case with a [Client],
// scripts the server's side and judges what the client sends.
//
// The rules that hold of every datagram the implementation sends (its
// size, ids, numbering, framing, types, the entity messages' sizes and
// values, positions) are judged over the whole run: every datagram any
// socket of the run sends to the implementation or receives from it
// passes one monitor, whichever case it belongs to, and the cases of
// those rules run last and report what it saw, so that a fault that
// comes once a second or once in a hundred datagrams is seen.
//
// A case that cannot meet its precondition (a full server, no Bydos ever
// spawned, a client that never queries where its acks do not show the
// rule) is not run, saying why. A failed MUST case fails the run, as does
// one not run for want of what it needs; SHOULD and GAME cases count only
// in strict mode; BEYOND cases, the fixes of §13's known limitations, are
// reported and never fail a version 1 implementation. A run the
// implementation stopped answering (a crash, a hang) decides nothing.
// [TestServer] and [TestClient] fail a Go test as that status does.
//
// [RunServer] and [RunClient] return a [Report], written as text, JSON or
// JUnit XML; [TestServer] and [TestClient] run the cases as subtests of a
// Go test. The command rtypecheck (cmd/rtypecheck) runs them from a shell.
//
// The suite never hangs and never crashes on what the implementation
// sends: every wait has a deadline, each case its own time limit, and
// every table filled from the network is bounded.
//
// # In memory
//
// The suite speaks UDP unless [Options].Network names another network:
// an in-memory one such as package rtypetest's, whose Listen becomes a
// [Network] with [NetworkOf]. Its delays being timers of package time, a
// Go implementation started on that network inside a testing/synctest
// bubble is then checked in virtual time, with no socket: every server
// case, a minute and more of the suite's waits, in a fraction of a second.
//
//	synctest.Test(t, func(t *testing.T) {
//		nw := rtypetest.NewNetwork(1)
//		addr := netip.MustParseAddrPort("10.0.0.1:4242")
//		conn, _ := nw.Listen(addr)
//		h, _ := host.Listen(host.Config{Conns: []session.PacketConn{conn}, New: newMatch})
//		ctx, stop := context.WithCancel(context.Background())
//		done := make(chan error, 1)
//		go func() { done <- h.Run(ctx) }()
//		conformance.TestServer(t, addr.String(), conformance.Options{Network: conformance.NetworkOf(nw.Listen)})
//		stop()
//		<-done
//	})
//
// The server mode's sockets then bind free ports of the target's own
// address; client mode's scripted server listens on Options.Listen, by
// default a free port of 127.0.0.1, and a [Client] starts an in-process
// client on the same network. Every goroutine of the run ends with it, as
// a bubble requires, once the implementation under test stops.
//
// # Adding a case
//
// A case is one literal in its mode's list for its section (the
// server_*_cases.go and client_*_cases.go files) and one row in that
// mode's table in docs/conformance.md, which TestDocListsEveryCase and
// TestCasesAreWellFormed check. ID is the section and its next free
// number, Title the rule in the spec's words, needs what the case must be
// able to wait beyond DefaultTimeout, and quits, in client mode, that it
// makes its client quit (r.quit), which a client started by hand cannot:
// without a command such a case is skipped before any client is asked
// for. The body ends the case with t.Failf
// (what was sent, what came back or did not, by when) or t.Skipf (a
// precondition not met), or t.waitedOut when the precondition is an
// answer that did not come in time, which a busy implementation may owe
// to the cases beside it: the run runs such a case again alone. Returning
// passes.
// A wait for an answer lasts t.paced(d), d grown to the server's pace. It opens its end of a
// connection with one call, and both ends act alike:
//
//	p := t.join()    // server mode: a player welcomed, its first Ping answered
//	r := t.connect() // client mode: a client welcomed, its first packet in
//
//	send(msgs...)          the next packet; sendSeq(seq, msgs...) packet seq
//	packet(seq, msgs...)   the bytes of packet seq, to break, then
//	sendRawSeq(seq, b)     send as packet seq; sendRaw(b) any datagram
//	expect(d, match)       wait up to d for a message: isType, isPong, asked, isCreate
//	settle(d), await(...)  read for d; read until a datagram matches
//	observe(f), tap(f)     f sees every message, every datagram, from now on
//
// (t.handshake and t.startClient stop before the first packet,
// t.newPlayer at a fresh socket.) A server case judges with p.probe,
// whether a Ping sent before the probe's was answered, and with p.world
// and p.seen, the entities as a client keeps them and as sent; a client
// case with r.processed and r.dropped, whether the client acted on a
// packet, as the QueryEntity it sends for an id a Snapshot lists shows,
// or, for a client that never queries, its acks (r.acked).
package conformance

// The files, by role (one package, so that the API is one):
//
//	suite.go, suite_*.go    the run engine: RunServer and RunClient, cases
//	                        and their selection, a case's check and verdict,
//	                        the scheduler, the ladder and the liveness probe,
//	                        the cases the run's monitor judges (over_run)
//	wire_*.go               what both modes' cases drive: networks, sockets
//	                        (endpoint), a connection's end (peer), matchers
//	server_*.go             server mode: the suite's player, what it knows
//	                        and sees, the server cases and their scenes
//	client.go, client_*.go  client mode: the client command and its end, the
//	                        scripted server (harness, remote), the client
//	                        cases and their probes, the run of its lanes
//	report.go, report_*.go  the Report and its text, JSON and JUnit forms
//	testing.go              TestServer and TestClient, for go test
