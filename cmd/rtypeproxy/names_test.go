package main

import "github.com/rtypeproto/rtype/internal/termwidth"

// textWidth is the name the tests measure lines with, termwidth's.
var textWidth = termwidth.Columns
