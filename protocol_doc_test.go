package rtype

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docs/protocol.md restates the protocol with one heading per section, so
// that every § citation in the repository leads somewhere a user can read.

// protocolDoc is the restatement, relative to the repository root, which is
// the directory of this package.
const protocolDoc = "docs/protocol.md"

// specSections are the sections of the specification, version 1, in its
// order, with §13's five known limitations numbered §13.1 to §13.5 as this
// project numbers them: docs/protocol.md has a heading for each, in this
// order, and for nothing else.
var specSections = []string{
	"1", "2", "2.1", "2.2", "3",
	"4", "4.1", "4.2", "4.3", "4.4",
	"5", "5.1", "5.2", "5.3", "5.4",
	"6",
	"7", "7.1", "7.2", "7.3", "7.4",
	"8", "8.1", "8.2", "8.3", "8.4",
	"9", "9.1", "9.2", "9.3",
	"10",
	"11", "11.1", "11.2", "11.3", "11.4",
	"12",
	"13", "13.1", "13.2", "13.3", "13.4", "13.5",
}

// sectionHeading matches a Markdown heading that starts with a section
// number: "## §4 Handshake", "### §4.3 Welcome".
var sectionHeading = regexp.MustCompile(`^#{1,6}[ \t]+§(\d+(?:\.\d+)*)(?:[ \t]|$)`)

// citationRE matches one citation, or a range of them: "§4.3", "§8.1–§8.3",
// "§8.1–8.3", "§6 to §8", "§§4.2-§4.4". A range's second end needs its own
// § after a hyphen or "to", where a bare number is more likely a quantity;
// an en or em dash may join a bare number. A list ("§4.1, §4.3") is one
// match per item, each having its §.
var citationRE = regexp.MustCompile(`§+[ \x{00A0}]?(\d+(?:\.\d+)*)` +
	`(?:[ \t]*(?:(?:–|—)[ \t]*§*|(?:-|to)[ \t]*§+)[ \x{00A0}]?(\d+(?:\.\d+)*))?`)

// maxRange bounds how many sections one range may expand to.
const maxRange = 20

// citations returns the sections line cites, a range expanded to every
// section in it when both ends share their parent ("§8.1–§8.3" is 8.1, 8.2
// and 8.3; "§6–§8" is 6, 7 and 8), else to its two ends.
func citations(line string) []string {
	var out []string
	for _, m := range citationRE.FindAllStringSubmatch(line, -1) {
		from, to := m[1], m[2]
		if to == "" {
			out = append(out, from)
			continue
		}
		out = append(out, expandRange(from, to)...)
	}
	return out
}

// expandRange lists the sections from from to to: every one between them
// when they differ only in their last number, else the two ends.
func expandRange(from, to string) []string {
	fp, fl, fok := splitLast(from)
	tp, tl, tok := splitLast(to)
	if !fok || !tok || fp != tp || tl < fl || tl-fl > maxRange {
		return []string{from, to}
	}
	var out []string
	for n := fl; n <= tl; n++ {
		out = append(out, fp+strconv.Itoa(n))
	}
	return out
}

// splitLast splits "8.3" into "8." and 3, "6" into "" and 6.
func splitLast(sec string) (prefix string, last int, ok bool) {
	i := strings.LastIndexByte(sec, '.')
	n, err := strconv.Atoi(sec[i+1:])
	if err != nil {
		return "", 0, false
	}
	return sec[:i+1], n, true
}

// protocolHeadings returns the section numbers of the headings of the
// Markdown text in order, leaving out fenced code blocks.
func protocolHeadings(text string) []string {
	var out []string
	fenced := false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			fenced = !fenced
			continue
		}
		if m := sectionHeading.FindStringSubmatch(line); m != nil && !fenced {
			out = append(out, m[1])
		}
	}
	return out
}

// scanned reports whether the citations of the file at path are checked:
// Go files other than tests, whose doc comments cite the specification;
// the Wireshark dissector (Lua), which cites it too; and Markdown, the
// READMEs and docs/ included. Test files are left out: their names and
// comments cite sections too, but test data may cite any number on purpose.
func scanned(path string) bool {
	switch filepath.Ext(path) {
	case ".go":
		return !strings.HasSuffix(path, "_test.go")
	case ".lua", ".md":
		return true
	}
	return false
}

// skippedDir reports whether a directory is left out of the scan: Git's,
// test data and vendored code, which are not the project's prose.
func skippedDir(name string) bool {
	return name == ".git" || name == "testdata" || name == "vendor"
}

// citation is one section a file cites.
type citation struct {
	path    string
	line    int
	section string
}

// repoCitations walks the repository from root and returns every citation
// of the files scanned, and how many files it read.
func repoCitations(t *testing.T, root string) ([]citation, int) {
	t.Helper()
	var out []citation
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !scanned(path) {
			return nil
		}
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for n := 1; sc.Scan(); n++ {
			for _, sec := range citations(sc.Text()) {
				out = append(out, citation{filepath.ToSlash(path), n, sec})
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	return out, files
}

func readProtocolDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(protocolDoc)
	if err != nil {
		t.Fatalf("the protocol's restatement: %v", err)
	}
	return string(b)
}

// TestProtocolDocHasEverySection checks that docs/protocol.md has one
// heading per section of the specification, in the specification's order.
func TestProtocolDocHasEverySection(t *testing.T) {
	got := protocolHeadings(readProtocolDoc(t))
	if !slices.Equal(got, specSections) {
		t.Errorf("%s: section headings\n  %v\nwant, one per section of the specification, in its order,\n  %v",
			protocolDoc, got, specSections)
	}
}

// TestProtocolDocCoversCitations checks that every section the repository
// cites, in the files that scanned accepts, has its heading in
// docs/protocol.md, naming file:line for each that has none.
func TestProtocolDocCoversCitations(t *testing.T) {
	headings := map[string]bool{}
	for _, h := range protocolHeadings(readProtocolDoc(t)) {
		headings[h] = true
	}
	cites, files := repoCitations(t, ".")
	if files == 0 || len(cites) == 0 {
		t.Fatalf("read %d files, found %d citations: not the repository root?", files, len(cites))
	}
	for _, c := range cites {
		if !headings[c.section] {
			t.Errorf("%s:%d: cites §%s, which has no heading in %s", c.path, c.line, c.section, protocolDoc)
		}
	}
	t.Logf("checked %d citations in %d files against %s", len(cites), files, protocolDoc)
}

// TestCitationParsing pins down what counts as a citation, so that the
// scan above cannot pass by reading nothing.
func TestCitationParsing(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"// Welcome (§4.3).", []string{"4.3"}},
		{"the handshake (§4), the header (§5.1)", []string{"4", "5.1"}},
		{"a list (§4.1, §4.3 and §12)", []string{"4.1", "4.3", "12"}},
		{"at the end of a sentence, §13.", []string{"13"}},
		{"a range §8.1–§8.3: three", []string{"8.1", "8.2", "8.3"}},
		{"a range §8.1–8.3, the second § left out", []string{"8.1", "8.2", "8.3"}},
		{"the messages (§6–§8)", []string{"6", "7", "8"}},
		{"§13.1 to §13.5 are the five", []string{"13.1", "13.2", "13.3", "13.4", "13.5"}},
		{"§§4.2-§4.4", []string{"4.2", "4.3", "4.4"}},
		{"§ 10 with a space", []string{"10"}},
		{"across parents, §5.4–§6", []string{"5.4", "6"}},
		{"§5.2 - 3 packets: a hyphen and a bare number are no range", []string{"5.2"}},
		{"§4.2 to 10 s: neither is \"to\"", []string{"4.2"}},
		{"case 5.2/3 of §5.2", []string{"5.2"}},
		{"Section numbers (§) refer to the specification", nil},
		{"fmt.Printf(\"§%s\\n\", sec)", nil},
		{"| § | Rule |", nil},
	}
	for _, tt := range tests {
		if got := citations(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("citations(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}

	doc := "# Title\n## §4 Handshake\n### §4.3 Welcome\n```\n## §9 in a code block\n```\n##§5 no space\n#### §13.4\n"
	if got, want := protocolHeadings(doc), []string{"4", "4.3", "13.4"}; !slices.Equal(got, want) {
		t.Errorf("protocolHeadings = %q, want %q", got, want)
	}
}
