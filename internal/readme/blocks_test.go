package readme

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Go blocks are fenced with backticks or tildes, as go or golang; another
// language's block, even one holding a Go fence, is none, and only a fence
// of the opening's character and length closes a block.
func TestGoBlocks(t *testing.T) {
	md := "# T\n\n```go\npackage main\n```\n\ntext\n\n```sh\nls\n```go\n```\n\n  ```go\nx := 1\n  ```\n" +
		"~~~golang\ny := 2\n```\n~~~\n````go long-running\nz := 3\n```\n````\n```Go\nunclosed\n"
	want := []Block{
		{File: "T.md", Line: 4, Code: "package main\n"},
		{File: "T.md", Line: 15, Code: "x := 1\n"},
		{File: "T.md", Line: 18, Code: "y := 2\n```\n"},
		{File: "T.md", Line: 22, Code: "z := 3\n```\n", LongRunning: true},
		{File: "T.md", Line: 26, Code: "unclosed\n"},
	}
	if diff := cmp.Diff(want, GoBlocks("T.md", []byte(md))); diff != "" {
		t.Errorf("GoBlocks (-want +got):\n%s", diff)
	}
}

func TestIsProgram(t *testing.T) {
	for code, want := range map[string]bool{
		"package main\n":                   true,
		"// A comment.\n\npackage main\n":  true,
		"x := 1\n":                         false,
		"// package main\nlog.Println()\n": false,
		"":                                 false,
	} {
		if got := (Block{Code: code}).IsProgram(); got != want {
			t.Errorf("IsProgram(%q) = %v, want %v", code, got, want)
		}
	}
}

// A fragment gets the imports of the packages it names, each once, and its
// positions are those of the Markdown file.
func TestSourceOfFragment(t *testing.T) {
	b := Block{File: "R.md", Line: 7, Code: "t := time.Now()\nlog.Println(t, time.Since(t), session.ErrRejected)\n"}
	src, err := b.Source()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\t\"context\"\n\t\"github.com/rtypeproto/rtype/session\"\n\t\"log\"\n\t\"time\"\n)", "var ctx = context.Background()", "func main() {\n//line R.md:7\nt := time.Now()"} {
		if !strings.Contains(src, want) {
			t.Errorf("source lacks %q:\n%s", want, src)
		}
	}
	if _, err := (Block{File: "R.md", Line: 1, Code: "func f() {}\n"}).Source(); err == nil {
		t.Error("a declaration outside a function body: no error")
	}
}

func TestOutput(t *testing.T) {
	tests := []struct {
		code string
		want []string
	}{
		{"package main\n\nfunc main() {\n\tfmt.Println(1, 2) // 1 2\n\t// not output\n\tx := 3 // not a print\n\tfmt.Printf(\"%d\\n\",\n\t\tx) // 3\n\tfmt.Print(\"\\n\")\n}\n", []string{"1 2", "3"}},
		{"package main\n\nfunc main() {}\n", nil},
		{"fmt.Println(1) // 1\n", nil}, // a fragment is not run
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, (Block{File: "O.md", Code: tc.code}).Output()); diff != "" {
			t.Errorf("Output of\n%s(-want +got):\n%s", tc.code, diff)
		}
	}
}
