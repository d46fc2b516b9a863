// Package usermodule holds a test that uses the toolkit as a game author
// does before it is published: from a module of their own, in
// testdata/mygame, that requires it through a replace to this checkout.
// The test copies that module out of the repository, points its replace
// here, and runs its tests with the go command: a game on the host in
// memory under testing/synctest, at 20% loss, and the conformance suite.
package usermodule
