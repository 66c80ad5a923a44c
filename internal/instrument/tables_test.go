package instrument

import (
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestTablesMatchRuntime checks that every runtime function the rewriter
// calls exists in package rt, so a renamed rt function fails here and not
// in a user's build.
func TestTablesMatchRuntime(t *testing.T) {
	cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: repoRoot(t)}
	pkgs, err := packages.Load(cfg, DefaultRuntimeImport)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load rt: %v %v", err, pkgs)
	}
	scope := pkgs[0].Types.Scope()
	need := func(name string, withSite bool) {
		t.Helper()
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok {
			t.Errorf("rt.%s does not exist", name)
			return
		}
		params := fn.Type().(*types.Signature).Params()
		last := ""
		if params.Len() > 0 {
			last = params.At(params.Len() - 1).Type().String()
		}
		if got := strings.HasSuffix(last, "rt.Site"); got != withSite {
			t.Errorf("rt.%s: takes a Site = %v, the rewriter assumes %v", name, got, withSite)
		}
	}
	for _, fns := range funcTable {
		for _, name := range fns {
			need(name, true)
		}
	}
	for _, e := range methodTable {
		need(e.rt, !e.noSite)
	}
	for _, e := range testingMethods {
		need(e.rt, e.tOnly) // Run and Parallel take the call's site
	}
	for _, fns := range exitFuncs {
		for _, e := range fns {
			need(e.rt, !e.siteFirst)
		}
	}
	for _, name := range loggerMethods {
		need(name, false)
	}
	for _, fns := range determinismFuncs {
		for _, name := range fns {
			need(name, false)
		}
	}
	for _, name := range []string{"Go", "MakeChan", "Send", "Recv", "Recv2", "Close", "Len", "Read", "Write", "RegisterFile", "SelectStart", "SelectRecv", "SelectSend", "SelectValue", "Test", "FFuzz", "FuzzBody", "Branch", "SymWrite",
		"RangeMap", "RangeSlice", "ReadSlice", "WriteSlice", "UpdateSlice", "Append", "Grow", "Copy", "CopyString", "ReadRecv"} {
		if scope.Lookup(name) == nil {
			t.Errorf("rt.%s does not exist", name)
		}
	}
}

func TestIsTestName(t *testing.T) {
	for name, want := range map[string]bool{"Test": true, "TestX": true, "Test_x": true, "Testx": false, "Tes": false, "TestÄ": true, "Testä": false} {
		if got := isTestName(name); got != want {
			t.Errorf("isTestName(%q) = %v", name, got)
		}
	}
}

func TestImportable(t *testing.T) {
	for _, c := range []struct {
		from, path string
		want       bool
	}{
		{"example.com/a", "example.com/b", true},
		{"example.com/a", "example.com/x/internal/y", false},
		{"example.com/x/z", "example.com/x/internal/y", true},
		{"example.com/a", "internal/poll", false},
		{"example.com/a", "vendor/golang.org/x/net/dns", false},
	} {
		if got := importable(c.from, c.path); got != c.want {
			t.Errorf("importable(%q, %q) = %v", c.from, c.path, got)
		}
	}
}
