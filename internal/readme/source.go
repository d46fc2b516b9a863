package readme

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
)

// Imports maps the package names a fragment may use to their import paths.
var Imports = map[string]string{
	"context": "context",
	"errors":  "errors",
	"fmt":     "fmt",
	"log":     "log",
	"net":     "net",
	"netip":   "net/netip",
	"os":      "os",
	"rtype":   "github.com/rtypeproto/rtype",
	"session": "github.com/rtypeproto/rtype/session",
	"slog":    "log/slog",
	"time":    "time",
}

// Source returns the block as the main.go of a program. A whole program is
// returned as it is; a fragment becomes the body of main, with the imports
// of the packages it names and a package-level ctx, the context a real
// program would get from signal.NotifyContext. A //line comment makes the
// compiler's positions those of the Markdown file.
func (b Block) Source() (string, error) {
	directive := fmt.Sprintf("//line %s:%d\n", b.File, b.Line)
	if b.IsProgram() {
		return directive + b.Code, nil
	}
	body := "func main() {\n" + b.Code + "}\n"
	f, err := parser.ParseFile(token.NewFileSet(), b.File, "package main\n"+body, parser.SkipObjectResolution)
	if err != nil {
		return "", fmt.Errorf("%s:%d: not a function body: %w", b.File, b.Line, err)
	}
	paths := []string{"context"}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && Imports[id.Name] != "" {
				paths = append(paths, Imports[id.Name])
			}
		}
		return true
	})
	slices.Sort(paths)
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n")
	for _, p := range slices.Compact(paths) {
		fmt.Fprintf(&src, "\t%q\n", p)
	}
	src.WriteString(")\n\nvar ctx = context.Background()\n\nfunc main() {\n")
	src.WriteString(directive)
	src.WriteString(b.Code)
	src.WriteString("}\n")
	return src.String(), nil
}
