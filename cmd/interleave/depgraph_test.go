package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

// TestDependencyGraphInstrumented runs testdata/depgraph/app with default
// flags. It depends on a go 1.12 module, a module whose files are selected
// by build tags (old and new syntax, and a file for another system that
// does not compile here), and a go.mod-less +incompatible module from the
// module proxy: every one of them is instrumented (the first two through
// the overlay, the last through a mirror of the module), builds, keeps its
// language semantics, and the tests pass.
func TestDependencyGraphInstrumented(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	if b, err := exec.Command("go", "mod", "download", "github.com/patrickmn/go-cache@v2.1.0+incompatible").CombinedOutput(); err != nil {
		t.Skipf("github.com/patrickmn/go-cache is neither in the module cache nor downloadable: %v\n%s", err, b)
	}
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "depgraph"), root)
	cache := t.TempDir()
	t.Setenv(driver.CacheEnv, cache)
	app := filepath.Join(root, "app")
	code, stdout, stderr := cli(t, "test", "-C", app, "-schedules=30", "-v", ".")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, test := range []string{"TestFill", "TestCount", "TestOldLoopVariable"} {
		if !strings.Contains(stdout, "--- PASS: "+test) {
			t.Errorf("%s did not pass:\n%s", test, stdout)
		}
	}
	if n := strings.Count(stdout, "30 schedules explored"); n != 3 {
		t.Errorf("%d tests explored, want 3:\n%s", n, stdout)
	}
	overlays, _ := filepath.Glob(filepath.Join(cache, "overlay", "*.json"))
	if len(overlays) != 1 {
		t.Fatalf("overlays: %v", overlays)
	}
	overlay, err := os.ReadFile(overlays[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"oldmod/counter.go", "tagged/queue.go", "tagged/put_unix.go"} {
		if !strings.Contains(string(overlay), filepath.Join(root, filepath.FromSlash(f))) {
			t.Errorf("%s is not instrumented:\n%s", f, overlay)
		}
	}
	for _, f := range []string{"tagged/put_other.go", "tagged/plan9.go"} {
		if strings.Contains(string(overlay), filepath.Join(root, filepath.FromSlash(f))) {
			t.Errorf("%s, excluded by its build tags, is in the overlay", f)
		}
	}
	mirrored, _ := filepath.Glob(filepath.Join(cache, "modules", "*", "cache.go"))
	if len(mirrored) != 1 {
		t.Fatalf("go-cache is not mirrored: %v", mirrored)
	}
	if b, err := os.ReadFile(mirrored[0]); err != nil || !strings.Contains(string(b), "__rt.") {
		t.Errorf("the mirror of go-cache is not instrumented: %v", err)
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "interleave: warning:") && !strings.HasPrefix(line, "interleave: warning: app") {
			t.Errorf("a warning about code the user did not write: %s", line)
		}
	}
}
