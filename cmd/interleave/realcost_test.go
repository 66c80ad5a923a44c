package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

var realModulesCost = flag.Bool("realmodules.cost", false, "run TestRealModulesCost: one schedule of each test of the real modules against go test and go test -race")

// TestRealModulesCost measures, for every test of the real modules
// (realModules; with -realmodules.all moreRealModules too; narrowed by
// -realmodules.only), the time of one schedule under interleave (the
// result's own clock, exploration only) against the same test under
// plain go test and under go test -race (the time between the test's
// run and pass events of go test -json, to the microsecond). It prints a
// row per test and the distribution of the ratios: the table of
// docs/performance.md. Times are wall clock: run it on an idle machine.
func TestRealModulesCost(t *testing.T) {
	if !*realModulesCost {
		t.Skip("run with -realmodules.cost (minutes)")
	}
	only, err := regexp.Compile(*realModulesOnly)
	if err != nil {
		t.Fatalf("-realmodules.only: %v", err)
	}
	modules := realModules
	if *realModulesAll {
		modules = append(slices.Clip(modules), moreRealModules...)
	}
	var toNative, toRace []float64
	t.Log("| module | test | go test (s) | go test -race (s) | one schedule (s) | against go test | against -race |")
	t.Log("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
	for _, m := range modules {
		if !only.MatchString(m.path) {
			continue
		}
		dir, patterns := copyModule(t, m)
		native := goTestTimes(t, dir, patterns, m.goFlags, false)
		race := goTestTimes(t, dir, patterns, m.goFlags, true)
		var stdout, stderr bytes.Buffer
		res, err := driver.Test(context.Background(), driver.Options{
			Dir:        dir,
			Patterns:   patterns,
			GoFlags:    append([]string{"-timeout=20m"}, m.goFlags...),
			Config:     wire.Config{Schedules: 1, Seed: 1, Budget: wire.Duration(time.Minute)},
			Instrument: instrumentFile,
			CacheDir:   t.TempDir(),
			Stdout:     &stdout,
			Stderr:     &stderr,
		})
		if err != nil {
			t.Fatalf("%s: interleave test: %v\n%s", m.path, err, stderr.String())
		}
		for _, r := range res.Results {
			key := r.Package + " " + r.Test
			n, okN := native[key]
			rc, okR := race[key]
			if !okN || !okR || r.Outcome != wire.OutcomePass {
				continue // skipped, failed, or explored afresh
			}
			t.Logf("| %s | %s | %.4f | %.4f | %.4f | %.1f | %.1f |", m.path, r.Test, n, rc, r.Seconds, r.Seconds/n, r.Seconds/rc)
			toNative, toRace = append(toNative, r.Seconds/n), append(toRace, r.Seconds/rc)
		}
	}
	if len(toRace) == 0 {
		t.Fatal("no test measured")
	}
	t.Logf("%d tests: one schedule against go test: %s; against go test -race: %s; at most the time under -race: %d of %d",
		len(toRace), quartiles(toNative), quartiles(toRace), countAtMost(toRace, 1), len(toRace))
}

// goTestTimes runs go test -json (with -race) on the patterns in dir and
// returns the seconds each passing top-level test took, by "package test".
func goTestTimes(t *testing.T, dir string, patterns, goFlags []string, race bool) map[string]float64 {
	t.Helper()
	args := []string{"test", "-json", "-count=1", "-timeout=20m"}
	if race {
		args = append(args, "-race")
	}
	args = append(append(args, goFlags...), patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, _ := cmd.Output() // failing tests are left out below
	started := map[string]time.Time{}
	times := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var ev struct {
			Time    time.Time
			Action  string
			Package string
			Test    string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		key := ev.Package + " " + ev.Test
		switch ev.Action {
		case "run":
			started[key] = ev.Time
		case "pass":
			if s, ok := started[key]; ok {
				times[key] = max(ev.Time.Sub(s).Seconds(), 1e-6)
			}
		}
	}
	return times
}

// quartiles describes a distribution of ratios: its quartiles.
func quartiles(xs []float64) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	q := func(p float64) float64 { return s[int(math.Round(p*float64(len(s)-1)))] }
	return fmt.Sprintf("median %.1fx (quartiles %.1fx, %.1fx; %.1fx to %.1fx)", q(0.5), q(0.25), q(0.75), s[0], s[len(s)-1])
}

func countAtMost(xs []float64, limit float64) int {
	n := 0
	for _, x := range xs {
		if x <= limit {
			n++
		}
	}
	return n
}
