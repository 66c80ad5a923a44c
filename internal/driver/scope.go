package driver

import (
	"fmt"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Scope is the set of packages the driver instruments: the main module's
// always, and those of the dependency modules it selects. Real programs
// synchronize through their dependencies (errgroup, semaphores, pools,
// mock clocks), and what is not instrumented can neither be explored nor
// kept from blocking natively, so the zero Scope selects every module of
// the build list. The standard library is never instrumented.
type Scope struct {
	mainOnly bool
	patterns []*regexp.Regexp
	text     string
}

// ParseScope parses the value of the -instrument flag: "all" (or "") for
// every module, "main" for the main module only, or a comma-separated list
// of package patterns ("golang.org/x/sync/...", "example.com/m/pkg") or
// module paths that select dependency packages besides the main module's.
func ParseScope(s string) (Scope, error) {
	switch s {
	case "", "all":
		return Scope{}, nil
	case "main":
		return Scope{mainOnly: true, text: s}, nil
	}
	sc := Scope{text: s}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" || p == "all" || p == "main" || strings.ContainsAny(p, " \t") {
			return Scope{}, fmt.Errorf("-instrument %q: want all, main, or comma-separated package patterns", s)
		}
		sc.patterns = append(sc.patterns, patternRegexp(p))
	}
	return sc, nil
}

// patternRegexp compiles a go-style package pattern: "..." matches any
// string, and "p/..." matches p itself too.
func patternRegexp(p string) *regexp.Regexp {
	re := regexp.QuoteMeta(p)
	re = strings.ReplaceAll(re, `/\.\.\.`, `(/.*)?`)
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	return regexp.MustCompile("^" + re + "$")
}

// String returns the flag value the scope was parsed from.
func (s Scope) String() string {
	if s.text == "" {
		return "all"
	}
	return s.text
}

// observerModules are dependency modules that are never instrumented,
// whatever the scope: their code inspects the test process rather than
// taking part in the code under test. goleak parses the stacks of every
// goroutine in the process (goleak.IgnoreCurrent runs inside the
// exploration); instrumented, each schedule would record one event per
// word it reads, and how many depends on the goroutines of earlier tests
// still alive, so no schedule of a test calling it would replay alike.
var observerModules = map[string]bool{
	"go.uber.org/goleak": true,
}

// includesDep reports whether the scope selects package p of a dependency
// module: p's path or its module's path matches one of the patterns, and
// the module is not one of the observerModules.
func (s Scope) includesDep(p *packages.Package) bool {
	if s.mainOnly || (p.Module != nil && observerModules[p.Module.Path]) {
		return false
	}
	if len(s.patterns) == 0 {
		return true
	}
	for _, re := range s.patterns {
		if re.MatchString(p.PkgPath) || (p.Module != nil && re.MatchString(p.Module.Path)) {
			return true
		}
	}
	return false
}
