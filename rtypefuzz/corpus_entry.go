package rtypefuzz

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// An entry file is text, to be read and edited by hand:
//
//	# sig answer:empty-packet|drop:framing
//	# layer framing
//	0000002a0000000500000004ffffffff0003000400000001
//
// the signature of the behaviour the input reached, the layer its mutation
// changed, then the input's hex, 32 bytes a line. Other lines starting
// with # are comments.
const entryHexLine = 64

// entryMaxFile bounds what is read of an entry: the header and the hex of
// the largest input, with its line breaks, fit well under it.
const entryMaxFile = 1 << 18

// writeEntry writes the entry to path through a temporary file renamed in
// place, so that a run stopped while writing leaves no truncated entry
// behind for the next run to trip on.
func writeEntry(path, sig string, layer Layer, b []byte) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# sig %s\n# layer %s\n", sig, layer)
	h := hex.EncodeToString(b)
	for len(h) > 0 {
		n := min(len(h), entryHexLine)
		buf.WriteString(h[:n])
		buf.WriteByte('\n')
		h = h[n:]
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".entry-*")
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	return nil
}

// readEntry reads the entry at path.
func readEntry(path string) (sig string, layer Layer, b []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, entryMaxFile+1))
	if err != nil {
		return "", 0, nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	if len(text) > entryMaxFile {
		return "", 0, nil, fmt.Errorf("%w: %s: over %d bytes", ErrCorpus, path, entryMaxFile)
	}
	sig, layer, b, err = parseEntry(string(text))
	if err != nil {
		return "", 0, nil, fmt.Errorf("%w: %s: %w", ErrCorpus, path, err)
	}
	return sig, layer, b, nil
}

// parseEntry parses an entry file's text; its errors say which line.
func parseEntry(text string) (string, Layer, []byte, error) {
	var sig, layer *string
	var h strings.Builder
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		var dup bool
		switch {
		case line == "# sig" || strings.HasPrefix(line, "# sig "):
			dup = sig != nil
			s := strings.TrimPrefix(strings.TrimPrefix(line, "# sig"), " ")
			sig = &s
		case strings.HasPrefix(line, "# layer "):
			dup = layer != nil
			s := strings.TrimSpace(strings.TrimPrefix(line, "# layer "))
			layer = &s
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			line = strings.TrimSpace(line)
			if _, err := hex.DecodeString(line); err != nil {
				return "", 0, nil, fmt.Errorf("line %d: not hex", i+1)
			}
			h.WriteString(line)
		}
		if dup {
			return "", 0, nil, fmt.Errorf("line %d: second %s", i+1, strings.Fields(line)[1])
		}
	}
	if sig == nil || layer == nil {
		return "", 0, nil, fmt.Errorf("no # sig or no # layer line")
	}
	l, ok := layerNamed(*layer)
	if !ok {
		return "", 0, nil, fmt.Errorf("unknown layer %q", *layer)
	}
	b, _ := hex.DecodeString(h.String()) // each line's hex has been checked
	if b == nil {
		b = []byte{}
	}
	if len(b) > CorpusMaxBytes {
		return "", 0, nil, fmt.Errorf("input of %d bytes, over %d", len(b), CorpusMaxBytes)
	}
	return *sig, l, b, nil
}

// layerNamed is the layer named s by Layer.String.
func layerNamed(s string) (Layer, bool) {
	for l := range NumLayers {
		if l.String() == s {
			return l, true
		}
	}
	return 0, false
}
