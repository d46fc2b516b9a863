//go:build !linux && !darwin

package main

import "os"

// terminalWidth cannot ask the terminal here: $COLUMNS, or the default
// width, stands in.
func terminalWidth(*os.File) (cols int, ok bool) { return 0, false }
