package driver

import (
	"os"
	"path/filepath"
	"time"
)

// The cache is trimmed as the go command trims its build cache: entries
// are marked when used (their modification time, refreshed at most hourly),
// and once a day a run removes those unused for trimAge. Schedule files are
// never trimmed: they are the user's.

const (
	trimAge      = 7 * 24 * time.Hour
	trimInterval = 24 * time.Hour
	markInterval = time.Hour
)

// markUsed refreshes the modification time of a cache entry in use, if it
// is older than markInterval.
func markUsed(path string) {
	info, err := os.Stat(path)
	if err != nil || time.Since(info.ModTime()) < markInterval {
		return
	}
	now := time.Now()
	os.Chtimes(path, now, now) // best effort: an unmarked entry is only rebuilt
}

// trimCache removes the cache entries unused for trimAge, at most once per
// trimInterval. Errors are ignored: trimming is housekeeping.
func trimCache(cacheDir string, now time.Time) {
	stamp := filepath.Join(cacheDir, "trim.txt")
	if info, err := os.Stat(stamp); err == nil && now.Sub(info.ModTime()) < trimInterval {
		return
	}
	if err := writeFileAtomic(stamp, []byte(now.Format(time.RFC3339)+"\n")); err != nil {
		return
	}
	old := func(path string) bool {
		info, err := os.Stat(path)
		return err == nil && now.Sub(info.ModTime()) > trimAge
	}
	// Instrumented files: files/xx/hash/name.go; the hash directory goes.
	files, _ := filepath.Glob(filepath.Join(cacheDir, "files", "*", "*", "*"))
	for _, f := range files {
		if old(f) {
			os.RemoveAll(filepath.Dir(f))
		}
	}
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "index", "*", "*.json"))
	overlays, _ := filepath.Glob(filepath.Join(cacheDir, "overlay", "*.json"))
	tools, _ := filepath.Glob(filepath.Join(cacheDir, "tool", "*"))
	for _, list := range [][]string{entries, overlays, tools} {
		for _, f := range list {
			if old(f) {
				os.Remove(f)
			}
		}
	}
	// Module trees: the runtime module and mirrors, marked by their go.mod.
	for _, kind := range []string{"runtime", "modules"} {
		dirs, _ := filepath.Glob(filepath.Join(cacheDir, kind, "*", "go.mod"))
		for _, gomod := range dirs {
			if old(gomod) {
				os.RemoveAll(filepath.Dir(gomod))
			}
		}
	}
}
