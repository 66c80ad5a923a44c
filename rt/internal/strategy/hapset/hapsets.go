package hapset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// HaPSets is what the HaPSet strategy learned: the ordered pairs of
// statements (pred, st) such that st was immediately dependent on pred, an
// operation of another goroutine, in a good run. It is bounded
// (maxHaPSets pairs); past the bound nothing new is learned, and Full says
// so.
type HaPSets struct {
	pairs  map[[2]uint64]struct{}
	loaded int
}

// maxHaPSets bounds the pairs a store keeps (16 MB of keys).
const maxHaPSets = 1 << 20

// hapsetsHeader starts a stored file; the version is its last word.
const hapsetsHeader = "interleave hapsets 1"

// NewHaPSets returns an empty store.
func NewHaPSets() *HaPSets { return &HaPSets{pairs: map[[2]uint64]struct{}{}} }

// Len is the number of pairs.
func (h *HaPSets) Len() int { return len(h.pairs) }

// New is the number of pairs learned since the store was made or loaded.
func (h *HaPSets) New() int { return len(h.pairs) - h.loaded }

// Full reports whether the store reached its bound.
func (h *HaPSets) Full() bool { return len(h.pairs) >= maxHaPSets }

func (h *HaPSets) has(pr [2]uint64) bool {
	_, ok := h.pairs[pr]
	return ok
}

func (h *HaPSets) add(pr [2]uint64) {
	if len(h.pairs) < maxHaPSets {
		h.pairs[pr] = struct{}{}
	}
}

// LoadHaPSets reads the store at path; a missing file is an empty store.
// A file that is not a store is an error, and the store returned is
// empty.
func LoadHaPSets(path string) (*HaPSets, error) {
	h := NewHaPSets()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("reading HaPSets: %w", err)
	}
	defer f.Close()
	if err := h.read(f); err != nil {
		return NewHaPSets(), fmt.Errorf("reading HaPSets %s: %w", path, err)
	}
	h.loaded = len(h.pairs)
	return h, nil
}

func (h *HaPSets) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	if !sc.Scan() || sc.Text() != hapsetsHeader {
		return fmt.Errorf("not a HaPSets file (want the first line %q)", hapsetsHeader)
	}
	for line := 2; sc.Scan(); line++ {
		a, b, ok := strings.Cut(sc.Text(), " ")
		x, err1 := strconv.ParseUint(a, 16, 64)
		y, err2 := strconv.ParseUint(b, 16, 64)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("line %d: want two hexadecimal statement keys", line)
		}
		if len(h.pairs) >= maxHaPSets {
			break
		}
		h.pairs[[2]uint64{x, y}] = struct{}{}
	}
	return sc.Err()
}

// Save writes the store to path, together with what another process saved
// there since it was loaded, atomically (a temporary file renamed).
func (h *HaPSets) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return fmt.Errorf("saving HaPSets: %w", err)
	}
	if other, err := LoadHaPSets(path); err == nil {
		for pr := range other.pairs {
			h.add(pr)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".hapsets-*")
	if err != nil {
		return fmt.Errorf("saving HaPSets: %w", err)
	}
	w := bufio.NewWriter(tmp)
	fmt.Fprintln(w, hapsetsHeader)
	for pr := range h.pairs {
		fmt.Fprintf(w, "%x %x\n", pr[0], pr[1])
	}
	err = w.Flush()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving HaPSets: %w", err)
	}
	return nil
}
