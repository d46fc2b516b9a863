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
	// LongRunning marks a block whose info string has the word
	// "long-running" after the language ("```go long-running"): a program
	// that runs until it is stopped, such as a server, which is not run.
	LongRunning bool
}

// fence is an opening code fence: its character and length (CommonMark's
// rule: a closing fence has the same character, at least as many).
type fence struct {
	char byte
	n    int
}

// openFence parses line as an opening fence of three or more backticks or
// tildes, and returns it with the words of its info string.
func openFence(line string) (fence, []string, bool) {
	line = strings.TrimSpace(line)
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return fence{}, nil, false
	}
	f := fence{char: line[0]}
	for f.n < len(line) && line[f.n] == f.char {
		f.n++
	}
	if f.n < 3 {
		return fence{}, nil, false
	}
	return f, strings.Fields(line[f.n:]), true
}

// closes reports whether line closes a block opened by f.
func (f fence) closes(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) >= f.n && strings.Trim(line, string(f.char)) == ""
}

// isGo reports whether the first word of an info string names Go: "go" or
// "golang", in any case.
func isGo(info []string) bool {
	return len(info) > 0 && (strings.EqualFold(info[0], "go") || strings.EqualFold(info[0], "golang"))
}

// GoBlocks returns the Go blocks of markdown, in order: those fenced with
// backticks or tildes whose language is go or golang. An unclosed block runs
// to the end of the file, as Markdown renders it.
func GoBlocks(file string, markdown []byte) []Block {
	var blocks []Block
	var code strings.Builder
	var open fence
	in, isGoBlock := false, false
	var cur Block
	sc := bufio.NewScanner(bytes.NewReader(markdown))
	sc.Buffer(nil, len(markdown)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !in:
			f, info, ok := openFence(line)
			if !ok {
				continue
			}
			in, open, isGoBlock = true, f, isGo(info)
			cur = Block{File: file, Line: n + 1}
			for _, w := range info[min(1, len(info)):] {
				cur.LongRunning = cur.LongRunning || w == "long-running"
			}
			code.Reset()
		case open.closes(line):
			in = false
			if isGoBlock {
				cur.Code = code.String()
				blocks = append(blocks, cur)
			}
		default:
			code.WriteString(line)
			code.WriteByte('\n')
		}
	}
	if in && isGoBlock {
		cur.Code = code.String()
		blocks = append(blocks, cur)
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
