// Package exampletest holds what the tests of the repository's modules
// share. It runs the example programs: it builds one with the go command
// and starts the example server on a free loopback port, read back from
// its log. And it has the checks those tests, and the tests of the tools
// and the host, would otherwise each write again: waiting for a condition
// ([WaitFor]), a report's width ([CheckWidth]), and a run on an in-memory
// network in virtual time ([InMemory]).
//
// It is for tests only: every function takes a *testing.T, fails the test
// when the program cannot be built or started or the check does not hold,
// and stops what it started when the test ends.
package exampletest
