package driver

import (
	"bytes"
	"regexp"
	"sync"

	"interleave.dev/rt/wire"
)

// When one go test runs several packages, the driver cannot tell the
// runtime which package it is in (the Config is one environment variable for
// every test binary), so schedule files are written without a package. The
// driver learns it from go test's output, where each package's output ends
// with its "ok"/"FAIL" line (or, with -json, every event names its package),
// and completes the schedule files, so that "interleave replay" knows which
// package to run.

var (
	replayRE  = regexp.MustCompile(`replay: interleave replay ([^\s"\\]+)`)
	pkgLineRE = regexp.MustCompile(`^(?:ok  |FAIL)\t(\S+)`)
	jsonPkgRE = regexp.MustCompile(`"Package":"([^"]+)"`)
	testRE    = regexp.MustCompile(`^--- (?:PASS|FAIL|SKIP): (\S+) \(`)
	jsonEndRE = regexp.MustCompile(`"Action":"(?:pass|fail|skip)","Package":"([^"]+)","Test":"([^"/]+)"`)
)

// attributor collects the schedule files named in go test's output and the
// package each belongs to.
type attributor struct {
	mu      sync.Mutex
	pending []string          // schedule files seen since the last package line
	pkgOf   map[string]string // schedule file -> import path
	tests   []string          // top-level tests seen since the last package line
	testPkg map[string]string // test name -> import path ("" if ambiguous)
}

func newAttributor() *attributor {
	return &attributor{pkgOf: map[string]string{}, testPkg: map[string]string{}}
}

// testIn records that test ran in package pkg.
func (a *attributor) testIn(test, pkg string) {
	if p, ok := a.testPkg[test]; ok && p != pkg {
		pkg = "" // two packages have a test of that name
	}
	a.testPkg[test] = pkg
}

// line observes one line of go test's standard output.
func (a *attributor) line(l []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := replayRE.FindSubmatch(l)
	if bytes.HasPrefix(l, []byte("{")) { // a -json event names its package
		if m != nil {
			if p := jsonPkgRE.FindSubmatch(l); p != nil {
				a.pkgOf[string(m[1])] = string(p[1])
			}
		}
		if e := jsonEndRE.FindSubmatch(l); e != nil {
			a.testIn(string(e[2]), string(e[1]))
		}
		return
	}
	if m != nil {
		a.pending = append(a.pending, string(m[1]))
	}
	if t := testRE.FindSubmatch(l); t != nil {
		a.tests = append(a.tests, string(t[1]))
	}
	if p := pkgLineRE.FindSubmatch(l); p != nil {
		for _, s := range a.pending {
			a.pkgOf[s] = string(p[1])
		}
		for _, t := range a.tests {
			a.testIn(t, string(p[1]))
		}
		a.pending, a.tests = nil, nil
	}
}

// complete writes the package into schedule files that lack it, and into
// results that name them.
func (a *attributor) complete(results []wire.Result) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for path, pkg := range a.pkgOf {
		s, err := wire.ReadSchedule(path)
		if err != nil || s.Package != "" {
			continue
		}
		s.Package = pkg
		wire.WriteSchedule(path, s) // best effort: replay falls back to ./...
	}
	for i := range results {
		if results[i].Package == "" {
			results[i].Package = a.pkgOf[results[i].Schedule]
		}
		if results[i].Package == "" {
			results[i].Package = a.testPkg[results[i].Test]
		}
	}
}
