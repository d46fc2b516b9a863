// Package readme finds the Go code blocks of the repository's Markdown files
// and makes each a program the go command can build, so that a test can
// prove every block works as pasted: a block that begins with a package
// clause is a whole program; any other block is the body of a main
// function, the imports its package names need added.
package readme
