package readme

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Output returns the lines a whole program says it prints: the text of the
// comment that ends each line calling fmt.Print, Printf or Println, in the
// order of the source, as in
//
//	fmt.Println(p.Header().Sequence) // 5
//
// It returns nil for a fragment, for a program that does not parse, and
// for one without such comments, whose output is not checked.
func (b Block) Output() []string {
	if !b.IsProgram() {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, b.File, b.Code, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	// The comment that ends each line, by line.
	trailing := map[int]string{}
	for _, g := range f.Comments {
		for _, c := range g.List {
			line := fset.Position(c.Pos()).Line
			if strings.HasPrefix(c.Text, "//") && !commentStartsLine(b.Code, fset.Position(c.Pos()).Offset) {
				trailing[line] = strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			}
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && isFmtPrint(call.Fun) {
			if text, ok := trailing[fset.Position(call.End()).Line]; ok {
				out = append(out, text)
			}
		}
		return true
	})
	return out
}

// isFmtPrint reports whether fun is fmt.Print, fmt.Printf or fmt.Println.
func isFmtPrint(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "fmt" && (sel.Sel.Name == "Print" || sel.Sel.Name == "Printf" || sel.Sel.Name == "Println")
}

// commentStartsLine reports whether only blanks precede offset on its line.
func commentStartsLine(code string, offset int) bool {
	start := strings.LastIndexByte(code[:offset], '\n') + 1
	return strings.TrimSpace(code[start:offset]) == ""
}
