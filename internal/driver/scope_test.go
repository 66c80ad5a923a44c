package driver

import (
	"bytes"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestParseScope(t *testing.T) {
	dep := &packages.Package{PkgPath: "golang.org/x/sync/semaphore", Module: &packages.Module{Path: "golang.org/x/sync"}}
	for _, tc := range []struct {
		flag string
		want bool
	}{
		{"", true}, {"all", true}, {"main", false},
		{"golang.org/x/sync", true}, {"golang.org/x/sync/...", true}, {"golang.org/x/...", true},
		{"golang.org/x/sync/errgroup", false}, {"example.com/a,golang.org/x/sync/semaphore", true},
		{"golang.org/x/syn", false},
	} {
		s, err := ParseScope(tc.flag)
		if err != nil {
			t.Fatalf("ParseScope(%q): %v", tc.flag, err)
		}
		if got := s.includesDep(dep); got != tc.want {
			t.Errorf("-instrument=%s selects %s: %v, want %v", tc.flag, dep.PkgPath, got, tc.want)
		}
	}
	goleak := &packages.Package{PkgPath: "go.uber.org/goleak/internal/stack", Module: &packages.Module{Path: "go.uber.org/goleak"}}
	for _, flag := range []string{"all", "go.uber.org/..."} {
		if s, _ := ParseScope(flag); s.includesDep(goleak) {
			t.Errorf("-instrument=%s selects %s, which inspects the process and is never instrumented", flag, goleak.PkgPath)
		}
	}
	for _, bad := range []string{",", "main,golang.org/x/sync", "a b"} {
		if _, err := ParseScope(bad); err == nil {
			t.Errorf("ParseScope(%q) accepted", bad)
		}
	}
}

// TestDependencyWarningsSummed checks that warnings about dependency
// modules are one line per module unless all of them are asked for, and
// that the user's own warnings are always listed.
func TestDependencyWarningsSummed(t *testing.T) {
	main := &packages.Module{Path: "example.com/m", Main: true}
	dep := &packages.Module{Path: "example.com/dep", Version: "v1.2.0"}
	modules := map[string]*packages.Module{"/m/a.go": main, "/mod/dep/x.go": dep, "/mod/dep/c.go": dep}
	warns := []Warning{
		{Pos: token.Position{Filename: "/m/a.go", Line: 3}, Msg: "mine"},
		{Pos: token.Position{Filename: "/mod/dep/x.go", Line: 7}, Msg: "theirs"},
		{Pos: token.Position{Filename: "/mod/dep/x.go", Line: 9}, Msg: "theirs too"},
		{Pos: token.Position{Filename: "/mod/dep/c.go"}, Msg: "not instrumented: cgo file"},
	}
	var b bytes.Buffer
	printWarnings(&b, "/m", warns, modules, false)
	want := "interleave: warning: a.go:3: mine\n" +
		"interleave: dependency example.com/dep@v1.2.0: 3 instrumenter warnings, 1 file left native (-dep-warnings lists them)\n"
	if b.String() != want {
		t.Errorf("summed warnings:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	printWarnings(&b, "/m", warns, modules, true)
	if got := strings.Count(b.String(), "\n"); got != 4 || !strings.Contains(b.String(), "/mod/dep/x.go:9: theirs too") {
		t.Errorf("all warnings:\n%s", b.String())
	}
}
