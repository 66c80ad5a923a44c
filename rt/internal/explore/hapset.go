package explore

import (
	"fmt"
	"hash/fnv"
	"path/filepath"

	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/internal/strategy/hapset"
	"interleave.dev/rt/strategies"
)

// hapsetStore loads the HaPSets of strategy hapset (an empty store with
// HaPSetReset or no file) and puts them in setup, with hapset's settings.
func hapsetStore(opts Options, setup *strategies.Setup) error {
	store := hapset.NewHaPSets()
	if opts.HaPSetFile != "" && !opts.HaPSetReset {
		var err error
		if store, err = hapset.LoadHaPSets(opts.HaPSetFile); err != nil {
			return fmt.Errorf("interleave: %w (interleave test -hapset-reset starts over with nothing learned)", err)
		}
	}
	h := &setup.HaPSet
	h.Search, h.K, h.Learn, h.Store = opts.HaPSetSearch, opts.HaPSetK, opts.HaPSetLearn, store
	h.SiteKey = SiteKey
	return nil
}

// SiteKey names a site by its file, line and column, which stay the same
// from one build of the test binary to the next (site numbers do not).
func SiteKey(s uint32) uint64 {
	p := site.Pos(s)
	h := fnv.New64a()
	fmt.Fprintf(h, "%s:%d:%d", p.File, p.Line, p.Column)
	return h.Sum64()
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
