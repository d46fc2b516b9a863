package main

import "github.com/rtypeproto/rtype/internal/termwidth"

// The name the tests join words with, termwidth's.
const nbsp = termwidth.NBSP
