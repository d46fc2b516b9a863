// Package readme finds the Go code blocks of the repository's Markdown files
// and makes each a program the go command can build, so that a test can
// prove every block works as pasted. A block is fenced with backticks or
// tildes and names go or golang as its language. One that begins with a
// package clause is a whole program; any other block is the body of a main
// function, the imports its package names need added. The test builds and
// vets every block, runs every whole program but those fenced as
// "```go long-running" and requires exit status 0, and compares the output
// of a program whose prints carry it in trailing comments; fragments are
// not run.
package readme
