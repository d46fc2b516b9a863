package wiredump

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"net/netip"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

// decoderRoots are the decoders of package rtype: the parsers of §4 and §5
// and every UnmarshalBinary.
var decoderRoots = []string{"ParseHandshake", "ParsePacket", "UnmarshalBinary"}

// rtypeSource is what the test reads of package rtype's source: the text of
// each exported Err* sentinel, and its functions and methods by name.
type rtypeSource struct {
	sentinels map[string]string // name -> text given to errors.New
	funcs     map[string][]*ast.FuncDecl
}

func parseRtype(t *testing.T) rtypeSource {
	t.Helper()
	files, err := filepath.Glob("../../*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no source of package rtype: %v", err)
	}
	src := rtypeSource{sentinels: map[string]string{}, funcs: map[string][]*ast.FuncDecl{}}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				src.funcs[d.Name.Name] = append(src.funcs[d.Name.Name], d)
			case *ast.GenDecl:
				src.addSentinels(t, d)
			}
		}
	}
	return src
}

// addSentinels records the exported Err* variables of a declaration, which
// must each be errors.New of a string literal.
func (s rtypeSource) addSentinels(t *testing.T, d *ast.GenDecl) {
	if d.Tok != token.VAR {
		return
	}
	for _, spec := range d.Specs {
		v := spec.(*ast.ValueSpec)
		for i, id := range v.Names {
			if !id.IsExported() || !strings.HasPrefix(id.Name, "Err") {
				continue
			}
			text, ok := errorsNewText(v, i)
			if !ok {
				t.Fatalf("rtype.%s is not errors.New of a string literal: the test cannot tell its text", id.Name)
			}
			s.sentinels[id.Name] = text
		}
	}
}

func errorsNewText(v *ast.ValueSpec, i int) (string, bool) {
	if i >= len(v.Values) {
		return "", false
	}
	call, ok := v.Values[i].(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	text, err := strconv.Unquote(lit.Value)
	return text, err == nil
}

// decoderSentinels returns the sentinels named in the decoders and in every
// function of the package they call, by name: a method called on any type
// counts, which can only add sentinels.
func (s rtypeSource) decoderSentinels() []string {
	seen := map[string]bool{}
	found := map[string]bool{}
	queue := slices.Clone(decoderRoots)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, fn := range s.funcs[name] {
			if fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if _, ok := s.sentinels[n.Name]; ok {
						found[n.Name] = true
					}
				case *ast.CallExpr:
					if callee := calleeName(n.Fun); s.funcs[callee] != nil {
						queue = append(queue, callee)
					}
				}
				return true
			})
		}
	}
	out := make([]string, 0, len(found))
	for name := range found {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr: // a generic function instantiated explicitly
		return calleeName(e.X)
	}
	return ""
}

// Every sentinel a decoder of package rtype can return has a key, and the
// table names no sentinel of package rtype that no decoder returns: the
// keys cover exactly what a receiver can be told by the library. The
// sentinels are read from the source, so a new one fails this test until
// it has a key.
func TestDropKeysCoverDecoderSentinels(t *testing.T) {
	src := parseRtype(t)
	want := src.decoderSentinels()
	if len(want) < 10 {
		t.Fatalf("only %v found in the decoders: the source was not read right", want)
	}
	byText := map[string]string{}
	for name, text := range src.sentinels {
		byText[text] = name
	}
	var got []string
	for _, r := range dropReasons {
		if name, ok := byText[r.Err.Error()]; ok {
			got = append(got, name)
		}
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sentinels of package rtype a decoder returns (-) and those with a drop key (+):\n%s", diff)
	}
}

var kebab = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)

// The keys are unique kebab-case names, each with its rule and section,
// and DropKey finds each one from its error, wrapped or not; any other
// error gets DropOther, never its text.
func TestDropKey(t *testing.T) {
	keys := map[string]bool{DropOther: true}
	for _, r := range DropReasons() {
		if !kebab.MatchString(r.Key) || keys[r.Key] {
			t.Errorf("key %q: not kebab-case, or twice", r.Key)
		}
		keys[r.Key] = true
		if r.Rule == "" || (r.Section != "" && !strings.HasPrefix(r.Section, "§")) {
			t.Errorf("%s: rule %q, section %q", r.Key, r.Rule, r.Section)
		}
		if got := DropKey(r.Err); got != r.Key {
			t.Errorf("DropKey(%v) = %q, want %q", r.Err, got, r.Key)
		}
		if got := DropKey(wrap{r.Err}); got != r.Key {
			t.Errorf("DropKey of a wrapped %v = %q, want %q", r.Err, got, r.Key)
		}
	}
	for _, err := range []error{errors.New("rtype: destroy reason out of range"), rtype.ErrMessageType, nil} {
		if got := DropKey(err); got != DropOther {
			t.Errorf("DropKey(%v) = %q, want %q", err, got, DropOther)
		}
	}
}

// wrap is an error that wraps another, as a caller's context would.
type wrap struct{ err error }

func (w wrap) Error() string { return "context: " + w.err.Error() }
func (w wrap) Unwrap() error { return w.err }

func TestDropKeyAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _ = DropKey(rtype.ErrDestroyReason) }); n != 0 {
		t.Errorf("DropKey allocates %v times", n)
	}
}

// Every reason but the library-only ones and the capture's own is one a
// datagram decoded here gives, through Decode or Sides.Decode, and no
// datagram gives a library-only one: the keys rtypedump can print are
// exactly the others.
func TestDropKeysGiven(t *testing.T) {
	hdr := func(id, seq byte) []byte { return []byte{0, 0, 0, id, 0, 0, 0, seq, 0, 0, 0, 0, 0, 0, 0, 0} }
	msg := func(typ, size byte, payload ...byte) []byte {
		return append(append(hdr(1, 1), 0, typ, 0, size), payload...)
	}
	given := map[string]bool{}
	note := func(d Decoded) {
		if d.Err != nil {
			given[DropKey(d.Err)] = true
		}
		for _, m := range d.Messages {
			if m.Err != nil {
				given[DropKey(m.Err)] = true
			}
		}
	}
	for _, b := range [][]byte{
		make([]byte, 549), {1, 2, 3}, []byte("RTYX\x01\x01"), []byte("RTYP\x02\x01"),
		[]byte("RTYP\x01\x09"), []byte("RTYP\x01\x01\x00"), []byte("RTYP\x01\x02\x00\x00\x00\x00"),
	} {
		note(Decode(Handshake, b))
	}
	snapshot := func(count byte, ids ...byte) []byte {
		p := []byte{0, 0, 0, 1, 0, count}
		for _, id := range ids {
			p = append(p, 0, 0, 0, id, 0, 0x80, 0, 0x80, 0, 0, 0)
		}
		return msg(0x83, byte(len(p)), p...)
	}
	for _, b := range [][]byte{
		make([]byte, 549), {1, 2, 3}, hdr(0, 1), append(hdr(1, 1), 0, 2, 0),
		append(hdr(1, 1), 0, 2, 0, 9, 0), msg(3, 3, 0, 0, 0),
		msg(2, 9, 0, 0, 0, 1, 0, 0, 0, 1, 0x20), msg(0x13, 4, 0, 0, 0, 0),
		snapshot(48), snapshot(2, 7, 7), msg(0x85, 9, 0, 0, 0, 1, 0, 0, 0, 1, 9),
		make([]byte, 15), make([]byte, 17),
	} {
		note(Decode(Packet, b))
	}
	s := NewSides(rtype.DefaultPort)
	client := netip.MustParseAddrPort("10.0.0.2:1")
	for _, st := range []struct {
		toServer bool
		b        []byte
	}{
		{false, rtype.AppendWelcome(nil, 1)},
		{true, hdr(2, 1)}, {true, hdr(1, 40)}, {true, hdr(1, 40)}, {true, hdr(1, 3)},
		{true, rtype.AppendHello(nil)},
		{true, append(hdr(1, 41), 0, 4, 0, 1, 1)}, {false, hdr(1, 1)},
	} {
		note(s.Decode(client, st.toServer, st.b))
	}
	for _, r := range DropReasons() {
		if r.Section != "" && !given[r.Key] {
			t.Errorf("%s: no datagram of the test gives it; add one", r.Key)
		}
	}
}

// The decoder's keys are the toolkit's one taxonomy (session.DropReason),
// rule and section included, but for the capture's own; every reason of
// the taxonomy that a decoder of package rtype gives is among them. The
// other producers (the Server and Client's counts, their traces, qlog,
// Prometheus, the server's log) name drops by session.DropReason.Key.
func TestDropKeysAreTheTaxonomy(t *testing.T) {
	byKey := map[string]session.DropReason{}
	for r := range session.DropReasons() {
		byKey[r.Key()] = r
	}
	listed := map[session.DropReason]bool{}
	for _, d := range DropReasons() {
		if d.Err == ErrNotWholeDatagram {
			continue
		}
		r, ok := byKey[d.Key]
		if !ok || r.Rule() != d.Rule || r.Section() != d.Section {
			t.Errorf("%s: not the taxonomy's reason (%v, rule %q, section %q)", d.Key, r, r.Rule(), r.Section())
		}
		listed[r] = true
	}
	for r := range session.DropReasons() {
		if r.Err() != nil && !listed[r] {
			t.Errorf("%s: the decoders give it (%v), the dump does not name it", r.Key(), r.Err())
		}
	}
}
