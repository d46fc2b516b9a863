package main

import "github.com/rtypeproto/rtype/internal/termwidth"

// The names the tests measure lines and join words with, termwidth's.
var textWidth = termwidth.Columns

const nbsp = termwidth.NBSP
