package driver

import (
	"fmt"
	"os"
	"testing"
)

// sharedCacheDir is one cache for the tests that do not inspect the cache
// itself: the runtime module is then written and compiled once per test
// process instead of once per test (its build depends on its directory).
var sharedCacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "interleave-driver-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedCacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
