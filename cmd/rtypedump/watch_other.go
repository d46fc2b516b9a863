//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import "os"

// watchTerminal is -watch, which needs a Unix terminal.
func watchTerminal(*replayer, *os.File, *os.File) error { return errNoTerminal }
