package main

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// list returns the exported API of pkg, one declaration a line, sorted:
// constants with their values, variables, functions, types, the fields
// and methods of types.
func list(pkg *types.Package) []string {
	q := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	var lines []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch o := obj.(type) {
		case *types.Const:
			lines = append(lines, fmt.Sprintf("const %s %s = %s", name, types.TypeString(o.Type(), q), o.Val().ExactString()))
		case *types.Var:
			lines = append(lines, fmt.Sprintf("var %s %s", name, types.TypeString(o.Type(), q)))
		case *types.Func:
			lines = append(lines, "func "+name+signature(o.Type().(*types.Signature), q))
		case *types.TypeName:
			lines = append(lines, typeLines(o, q)...)
		}
	}
	slices.Sort(lines)
	return lines
}

// typeLines lists a type: its declaration, then for a struct each
// exported field, and each exported method declared on it.
func typeLines(o *types.TypeName, q types.Qualifier) []string {
	name := o.Name()
	if o.IsAlias() {
		return []string{fmt.Sprintf("type %s = %s", name, types.TypeString(o.Type(), q))}
	}
	named, ok := o.Type().(*types.Named)
	if !ok {
		return nil
	}
	decl := name + typeParams(named.TypeParams(), q)
	var lines []string
	switch u := named.Underlying().(type) {
	case *types.Struct:
		lines = append(lines, "type "+decl+" struct")
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() {
				continue
			}
			kind := "field"
			if f.Embedded() {
				kind = "embedded"
			}
			lines = append(lines, fmt.Sprintf("%s %s.%s %s", kind, name, f.Name(), types.TypeString(f.Type(), q)))
		}
	case *types.Interface:
		lines = append(lines, "type "+decl+" "+iface(u, q))
	default:
		lines = append(lines, "type "+decl+" "+types.TypeString(u, q))
	}
	for i := range named.NumMethods() {
		m := named.Method(i)
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := name
		if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
			recv = "*" + name
		}
		lines = append(lines, fmt.Sprintf("method (%s) %s%s", recv, m.Name(), signature(sig, q)))
	}
	return lines
}

// iface writes an interface whole on one line, its methods sorted: any
// change to it is a change of the line.
func iface(t *types.Interface, q types.Qualifier) string {
	var parts []string
	for i := range t.NumEmbeddeds() {
		parts = append(parts, types.TypeString(t.EmbeddedType(i), q))
	}
	for i := range t.NumExplicitMethods() {
		m := t.ExplicitMethod(i)
		name := m.Name()
		if !m.Exported() {
			name = "unexported " + name
		}
		parts = append(parts, name+signature(m.Type().(*types.Signature), q))
	}
	slices.Sort(parts)
	return "interface { " + strings.Join(parts, "; ") + " }"
}

// signature writes a function's parameters and results by type alone.
func signature(sig *types.Signature, q types.Qualifier) string {
	s := typeParams(sig.TypeParams(), q) + "(" + tupleTypes(sig.Params(), sig.Variadic(), q) + ")"
	switch r := sig.Results(); r.Len() {
	case 0:
	case 1:
		s += " " + types.TypeString(r.At(0).Type(), q)
	default:
		s += " (" + tupleTypes(r, false, q) + ")"
	}
	return s
}

func tupleTypes(t *types.Tuple, variadic bool, q types.Qualifier) string {
	parts := make([]string, t.Len())
	for i := range t.Len() {
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			parts[i] = "..." + types.TypeString(typ.(*types.Slice).Elem(), q)
			continue
		}
		parts[i] = types.TypeString(typ, q)
	}
	return strings.Join(parts, ", ")
}

func typeParams(l *types.TypeParamList, q types.Qualifier) string {
	if l.Len() == 0 {
		return ""
	}
	parts := make([]string, l.Len())
	for i := range l.Len() {
		p := l.At(i)
		parts[i] = p.Obj().Name() + " " + types.TypeString(p.Constraint(), q)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
