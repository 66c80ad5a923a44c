package main

import (
	"regexp"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

// TestMapOrderDependentFindingReplays explores a test whose outcome
// depends on the order of a range over a map, and replays its finding:
// the order is the schedule's, so every replay sees the same events, and
// a second exploration with the same seed reports the same finding. In a
// module of Go 1.23 the range ranges over rt.RangeMap; in one of Go 1.21,
// which cannot range over a function, it becomes a loop over rt.MapIter,
// with the same orders.
func TestMapOrderDependentFindingReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a module")
	}
	for _, goVersion := range []string{"1.23", "1.21"} {
		t.Run("go"+goVersion, func(t *testing.T) { testMapOrderDependentFindingReplays(t, goVersion) })
	}
}

// durations are the timings in a report, which differ between runs.
var durations = regexp.MustCompile(`[0-9.]+m?s\b`)

func testMapOrderDependentFindingReplays(t *testing.T, goVersion string) {
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/order\n\ngo " + goVersion + "\n",
		"order/order.go": `package order

import "sync"

var mu sync.Mutex

// Pick returns the first key the range produces, after as many critical
// sections as its value: the number of events depends on the order.
func Pick(m map[string]int) string {
	for k, v := range m {
		for i := 0; i < v; i++ {
			mu.Lock()
			mu.Unlock()
		}
		return k
	}
	return ""
}
`,
		"order/order_test.go": `package order

import "testing"

func TestPick(t *testing.T) {
	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8}
	if k := Pick(m); k == "e" {
		t.Errorf("picked %q", k)
	}
}
`,
	})
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=200", "./order")
	if code != driver.ExitFail || !strings.Contains(stdout, "test failure") {
		t.Fatalf("exit %d, want 1 and a test failure\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	m := replayLine.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no replay line in the report:\n%s", stdout)
	}
	for i := 0; i < 5; i++ {
		code, rstdout, rstderr := cli(t, "replay", "-C", dir, m[1])
		if code != driver.ExitFail || !strings.Contains(rstdout, `picked "e"`) {
			t.Fatalf("replay %d: exit %d, want 1 and the same failure\nstdout:\n%s\nstderr:\n%s", i, code, rstdout, rstderr)
		}
	}
	code2, stdout2, stderr2 := cli(t, "test", "-C", dir, "-schedules=200", "./order")
	if first, again := durations.ReplaceAllString(stdout, "?"), durations.ReplaceAllString(stdout2, "?"); code2 != code || again != first {
		t.Fatalf("the same seed again: exit %d, want %d and the same report\nfirst:\n%s\nagain:\n%s\nstderr:\n%s", code2, code, first, again, stderr2)
	}
}
