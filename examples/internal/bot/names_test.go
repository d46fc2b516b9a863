package bot

import "github.com/rtypeproto/rtype/internal/termwidth"

// textWidth is the name the tests measure lines with, termwidth's.
var textWidth = termwidth.Columns

// wrap is the wrapping the tests were written against: termwidth's, the
// first line led by nothing.
func wrap(s string, width int, indent string) []string { return termwidth.Wrap(s, width, "", indent) }
