// Package proc controls the processes the tools start: each in a process
// group of its own, so that a wrapper such as "go run" passes a signal on
// to the program it runs.
package proc
