package rtypefuzz

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Corpus limits. Entries and signatures live in memory, so they are
// bounded: a long run stops growing the corpus instead of its memory.
const (
	// CorpusMax is the most entries a corpus keeps.
	CorpusMax = 4096
	// CorpusMaxBytes is the longest input kept, the largest UDP payload.
	CorpusMaxBytes = 65535
	// CorpusMaxSig is the longest behaviour signature.
	CorpusMaxSig = 1024
)

// ErrCorpus is wrapped by the errors of a corpus entry that cannot be
// written or read back.
var ErrCorpus = errors.New("rtypefuzz: corpus")

// ErrCorpusFull is what Add returns for a new behaviour once the corpus
// holds CorpusMax entries: the input is not kept.
var ErrCorpusFull = errors.New("rtypefuzz: corpus full")

// Corpus keeps the inputs that reached a behaviour no earlier input did,
// one per behaviour signature, to be mutated again: in a directory, they
// seed the next run. It is safe for concurrent use.
type Corpus struct {
	dir     string // "" for a corpus in memory
	mu      sync.Mutex
	entries [][]byte
	sigs    map[string]bool
	names   map[string]bool // the entries' file names, to keep each input once
}

// OpenCorpus loads dir's entries (creating dir if missing); "" is an
// in-memory corpus. Files whose name is not an entry's (16 hex digits),
// such as a half-written one, are ignored; an entry that does not parse is
// an error, with its path. Past CorpusMax entries, the rest are not loaded.
func OpenCorpus(dir string) (*Corpus, error) {
	c := &Corpus{dir: dir, sigs: map[string]bool{}, names: map[string]bool{}}
	if dir == "" {
		return c, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	for _, f := range files { // sorted by name: the same Picks for a seed
		if len(c.entries) == CorpusMax {
			break
		}
		if !f.Type().IsRegular() || !isEntryName(f.Name()) {
			continue
		}
		path := filepath.Join(dir, f.Name())
		sig, _, b, err := readEntry(path)
		if err != nil {
			return nil, err
		}
		c.sigs[sig] = true
		c.names[f.Name()] = true
		c.entries = append(c.entries, b)
	}
	return c, nil
}

// Add keeps b if its behaviour signature sig (a short string the engine
// computes, e.g. "answer:empty-packet|drop:framing") is new, writing it to
// the directory; it reports whether it was new. A new signature past
// CorpusMax entries is not kept: Add returns false and ErrCorpusFull.
func (c *Corpus) Add(sig string, layer Layer, b []byte) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sigs[sig] {
		return false, nil
	}
	if err := checkEntry(sig, layer, b); err != nil {
		return false, err
	}
	if len(c.entries) >= CorpusMax {
		return false, ErrCorpusFull
	}
	name := entryName(b)
	if c.dir != "" && !c.names[name] {
		if err := writeEntry(filepath.Join(c.dir, name), sig, layer, b); err != nil {
			return false, err
		}
	}
	c.sigs[sig] = true
	if !c.names[name] { // a new behaviour of a known input: no second copy
		c.names[name] = true
		c.entries = append(c.entries, append([]byte{}, b...))
	}
	return true, nil
}

// Len returns the number of entries.
func (c *Corpus) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Pick returns an entry drawn with r (math/rand/v2), nil when empty. It is
// a copy, for the caller to mutate.
func (c *Corpus) Pick(r *rand.Rand) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) == 0 {
		return nil
	}
	return append([]byte{}, c.entries[r.IntN(len(c.entries))]...)
}

// entryName is the file name of input b: the hex of the first 8 bytes of
// its SHA-256, so an input is stored once however often it is found.
func entryName(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

func isEntryName(s string) bool {
	if len(s) != 16 || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// checkEntry refuses what the entry file could not hold: a signature must
// be one line, as the header holds it whole.
func checkEntry(sig string, layer Layer, b []byte) error {
	switch {
	case len(sig) > CorpusMaxSig:
		return fmt.Errorf("%w: signature of %d bytes, over %d", ErrCorpus, len(sig), CorpusMaxSig)
	case strings.ContainsAny(sig, "\r\n"):
		return fmt.Errorf("%w: signature %q is not one line", ErrCorpus, sig)
	case layer >= NumLayers:
		return fmt.Errorf("%w: layer %d", ErrCorpus, layer)
	case len(b) > CorpusMaxBytes:
		return fmt.Errorf("%w: input of %d bytes, over %d", ErrCorpus, len(b), CorpusMaxBytes)
	}
	return nil
}
