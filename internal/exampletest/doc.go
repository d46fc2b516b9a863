// Package exampletest runs the repository's example programs from the tests
// of any of its modules: it builds one with the go command and starts the
// example server on a free loopback port, read back from its log.
//
// It is for tests only: every function takes a *testing.T, fails the test
// when the program cannot be built or started, and stops what it started
// when the test ends.
package exampletest
