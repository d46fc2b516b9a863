package readme

import (
	"bufio"
	"bytes"
	"strings"
)

// Block is one fenced Go code block of a Markdown file.
type Block struct {
	// File is the Markdown file's path, as the caller named it.
	File string
	// Line is the line of the block's first line of code, from 1.
	Line int
	// Code is the text between the fences.
	Code string
}

// GoBlocks returns the blocks of markdown fenced with "```go", in order. An
// unclosed block runs to the end of the file, as Markdown renders it.
func GoBlocks(file string, markdown []byte) []Block {
	var blocks []Block
	var code strings.Builder
	in, start := false, 0
	sc := bufio.NewScanner(bytes.NewReader(markdown))
	sc.Buffer(nil, len(markdown)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fence := strings.TrimSpace(line)
		switch {
		case !in && (fence == "```go" || strings.HasPrefix(fence, "```go ")):
			in, start = true, n+1
			code.Reset()
		case in && fence == "```":
			in = false
			blocks = append(blocks, Block{File: file, Line: start, Code: code.String()})
		case in:
			code.WriteString(line)
			code.WriteByte('\n')
		}
	}
	if in {
		blocks = append(blocks, Block{File: file, Line: start, Code: code.String()})
	}
	return blocks
}

// IsProgram reports whether the block is a whole program: its first line
// that is neither blank nor a comment is a package clause.
func (b Block) IsProgram() bool {
	for line := range strings.Lines(b.Code) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		return strings.HasPrefix(line, "package ")
	}
	return false
}
