package main

import (
	"regexp"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

var hapsetLine = regexp.MustCompile(`interleave: HaPSets: (\d+) entries covered, (\d+) new in this run`)

// TestHaPSetEndToEnd runs strategy hapset on the kernel made for it: the
// fixed twin passes and -v says what was covered; a second run starts
// from what the first learned (no learning runs, nothing new), and
// -hapset-reset forgets it; the buggy variant's panic is found.
func TestHaPSetEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a kernel")
	}
	dir := kernelsDir(t)
	covered := func(args ...string) (entries, fresh string, stdout string) {
		t.Helper()
		code, stdout, stderr := cli(t, append([]string{"test", "-C", dir, "-strategy", "hapset", "-v"}, args...)...)
		if code != 0 {
			t.Fatalf("interleave test %v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		m := hapsetLine.FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("no coverage line under -v:\n%s", stdout)
		}
		return m[1], m[2], stdout
	}
	const fixed = "./hapset-reload-window/fixed"
	n1, new1, out := covered(fixed)
	if n1 == "0" || new1 != n1 || !strings.Contains(out, "random runs learned from first") {
		t.Errorf("first run: %s entries, %s new:\n%s", n1, new1, out)
	}
	n2, new2, out := covered(fixed)
	if n2 != n1 || new2 != "0" || strings.Contains(out, "learned from first") {
		t.Errorf("second run: %s entries, %s new (first: %s):\n%s", n2, new2, n1, out)
	}
	if _, _, out := covered("-hapset-reset", fixed); !strings.Contains(out, "learned from first") {
		t.Errorf("-hapset-reset did not start over:\n%s", out)
	}

	code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "hapset", "./hapset-reload-window/buggy")
	if code != driver.ExitFail || !strings.Contains(stdout, "(strategy hapset, seed 1)") || !strings.Contains(stdout, "panic") {
		t.Errorf("buggy: exit %d, want 1 with a panic found by hapset\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := cli(t, "test", "-C", dir, "-strategy", "hapset", "-hapset-search", "bfs", fixed); code != 2 || !strings.Contains(stderr, "-hapset-search") {
		t.Errorf("-hapset-search bfs: exit %d\n%s", code, stderr)
	}
}
