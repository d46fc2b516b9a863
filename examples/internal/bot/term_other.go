//go:build !linux && !darwin

package main

import "os"

// windowSize cannot ask the terminal here: $COLUMNS and $LINES, or the
// default size, stand in.
func windowSize(*os.File) (cols, rows int, ok bool) { return 0, 0, false }
