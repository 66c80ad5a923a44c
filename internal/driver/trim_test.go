package driver

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTrimCacheRemovesOnlyUnusedEntries(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	old := now.Add(-8 * 24 * time.Hour)
	entries := map[string]bool{ // path -> stays
		"files/ab/oldhash/a.go":    false,
		"files/cd/newhash/b.go":    true,
		"index/ab/old.json":        false,
		"index/cd/new.json":        true,
		"overlay/old.json":         false,
		"runtime/oldver/go.mod":    false,
		"runtime/newver/go.mod":    true,
		"modules/oldmir/go.mod":    false,
		"schedules/TestX-old.json": true, // never trimmed
	}
	for rel, stays := range entries {
		p := filepath.Join(cache, rel)
		writeTree(t, cache, map[string]string{rel: "x"})
		if !stays || rel == "schedules/TestX-old.json" {
			os.Chtimes(p, old, old)
		}
	}
	trimCache(cache, now)
	for rel, stays := range entries {
		_, err := os.Stat(filepath.Join(cache, rel))
		if exists := err == nil; exists != stays {
			t.Errorf("%s: exists %v, want %v", rel, exists, stays)
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "files", "ab", "oldhash")); err == nil {
		t.Error("the directory of a trimmed instrumented file remains")
	}
	// Within a day, a second trim does nothing.
	writeTree(t, cache, map[string]string{"overlay/old2.json": "x"})
	os.Chtimes(filepath.Join(cache, "overlay", "old2.json"), old, old)
	trimCache(cache, now.Add(time.Hour))
	if _, err := os.Stat(filepath.Join(cache, "overlay", "old2.json")); err != nil {
		t.Error("trimmed twice within a day")
	}
}

func TestMarkUsedRefreshesOldEntries(t *testing.T) {
	p := filepath.Join(t.TempDir(), "entry")
	os.WriteFile(p, []byte("x"), 0o444)
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(p, old, old)
	markUsed(p)
	if info, _ := os.Stat(p); time.Since(info.ModTime()) > time.Minute {
		t.Errorf("mtime %v not refreshed", info.ModTime())
	}
}
