package explore

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"

	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/internal/strategy"
)

// hapsetStore loads the HaPSets of strategy hapset (an empty store with
// HaPSetReset or no file) and configures sc with it.
func hapsetStore(opts Options, sc *strategy.Config) (*strategy.HaPSets, error) {
	store := strategy.NewHaPSets()
	if opts.HaPSetFile != "" && !opts.HaPSetReset {
		var err error
		if store, err = strategy.LoadHaPSets(opts.HaPSetFile); err != nil {
			return nil, fmt.Errorf("interleave: %w (interleave test -hapset-reset starts over with nothing learned)", err)
		}
	}
	h := &sc.HaPSet
	h.Search, h.K, h.Learn, h.Store = opts.HaPSetSearch, opts.HaPSetK, opts.HaPSetLearn, store
	h.SiteKey = SiteKey
	return store, nil
}

// SiteKey names a site by its file, line and column, which stay the same
// from one build of the test binary to the next (site numbers do not).
func SiteKey(s uint32) uint64 {
	p := site.Pos(s)
	h := fnv.New64a()
	fmt.Fprintf(h, "%s:%d:%d", p.File, p.Line, p.Column)
	return h.Sum64()
}

// hapsetCoverage says what strategy hapset covered, for go test -v.
func hapsetCoverage(hs *strategy.HaPSet, store *strategy.HaPSets) string {
	var b strings.Builder
	fmt.Fprintf(&b, "HaPSets: %d entries covered, %d new in this run", store.Len(), store.New())
	if hs.Learning > 0 {
		fmt.Fprintf(&b, " (%d random runs learned from first)", hs.Learning)
	}
	fmt.Fprintf(&b, "; %d reorderings skipped as covered", hs.Pruned)
	if hs.Exhausted() {
		b.WriteString("; no uncovered ordering left to try")
	}
	if store.Full() {
		b.WriteString("; the store is full, nothing more is learned")
	}
	return b.String()
}

// hapsetFile is where the HaPSets of test in package pkg are kept under
// dir.
func hapsetFile(dir, pkg, test string) string {
	if dir == "" {
		return ""
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s", pkg, test)
	return filepath.Join(dir, unsafeName.ReplaceAllString(test, "_")+fmt.Sprintf("-%016x", h.Sum64()))
}
