package driver

import (
	"bytes"
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestInstrumentScope checks that dependency modules are instrumented by
// default, and that -instrument narrows it.
func TestInstrumentScope(t *testing.T) {
	skipShort(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"dep/go.mod":     "module example.com/dep\n\ngo 1.21\n",
		"dep/dep.go":     "package dep\n\n// Two returns 2.\nfunc Two() int { return 2 }\n",
		"main/go.mod":    "module example.com/main\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
		"main/m.go":      "package m\n\nimport \"example.com/dep\"\n\n// Three returns 3.\nfunc Three() int { return dep.Two() + 1 }\n",
		"main/m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tif Three() != 3 {\n\t\tt.Fatal(Three())\n\t}\n}\n",
	})
	dir := filepath.Join(root, "main")
	for _, tc := range []struct {
		scope string
		deps  bool
	}{{"", true}, {"all", true}, {"main", false}, {"example.com/dep", true}, {"example.com/d...", true}, {"example.com/other/...", false}} {
		scope, err := ParseScope(tc.scope)
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		cache := t.TempDir()
		out, err := Test(context.Background(), Options{
			Dir: dir, Scope: scope, Instrument: standIn, ToolID: "deps-test",
			CacheDir: cache, Stdout: &stdout, Stderr: &stderr,
		})
		if err != nil || out.ExitCode() != ExitPass {
			t.Fatalf("-instrument=%s: %v %+v\n%s\n%s", tc.scope, err, out, stdout.String(), stderr.String())
		}
		overlays, _ := filepath.Glob(filepath.Join(cache, "overlay", "*.json"))
		if len(overlays) != 1 {
			t.Fatalf("overlays %v", overlays)
		}
		b := readFile(t, overlays[0])
		if got := strings.Contains(b, filepath.Join(root, "dep", "dep.go")); got != tc.deps {
			t.Errorf("-instrument=%s: dep.go in overlay = %v:\n%s", tc.scope, got, b)
		}
		if !strings.Contains(b, filepath.Join(dir, "m.go")) {
			t.Errorf("m.go not in overlay:\n%s", b)
		}
	}
}

// xsyncModule writes a module that uses golang.org/x/sync/errgroup, a
// dependency of this module (so it is in the module cache and its sums are
// in this module's go.sum), and returns its directory.
func xsyncModule(t *testing.T) string {
	t.Helper()
	var sums []string
	version := ""
	for _, line := range strings.Split(readFile(t, filepath.Join("..", "..", "go.sum")), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "golang.org/x/sync" {
			sums = append(sums, line)
			version = strings.TrimSuffix(f[1], "/go.mod")
		}
	}
	if version == "" {
		t.Skip("golang.org/x/sync is not in go.sum")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":    "module example.com/u\n\ngo 1.26.0\n\nrequire golang.org/x/sync " + version + "\n",
		"go.sum":    strings.Join(sums, "\n") + "\n",
		"u.go":      "package u\n\nimport \"golang.org/x/sync/errgroup\"\n\n// Run runs nothing in a group.\nfunc Run() error {\n\tvar g errgroup.Group\n\tg.Go(func() error { return nil })\n\treturn g.Wait()\n}\n",
		"u_test.go": "package u\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) {\n\tif err := Run(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
	})
	return dir
}

func TestInstrumentDepsFromModuleCache(t *testing.T) {
	skipShort(t)
	dir := xsyncModule(t)
	before := hashTree(t, dir)
	cache := t.TempDir()
	var stdout, stderr bytes.Buffer
	out, err := Test(context.Background(), Options{
		Dir: dir, Instrument: standIn, ToolID: "modcache-test",
		CacheDir: cache, Stdout: &stdout, Stderr: &stderr,
	})
	if err != nil || out.ExitCode() != ExitPass {
		t.Fatalf("%v %+v\n%s\n%s", err, out, stdout.String(), stderr.String())
	}
	mirrored, _ := filepath.Glob(filepath.Join(cache, "modules", "*", "errgroup", "errgroup.go"))
	if len(mirrored) != 1 || !strings.Contains(readFile(t, mirrored[0]), "interleave_rt") {
		t.Errorf("errgroup not instrumented in a module mirror: %v", mirrored)
	}
	if hashTree(t, dir) != before {
		t.Error("the run wrote into the user's tree")
	}
}

func TestVendoredModuleBuildsFromModuleCache(t *testing.T) {
	skipShort(t)
	dir := xsyncModule(t)
	cmd := exec.Command("go", "mod", "vendor")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("go mod vendor: %v\n%s", err, out)
	}
	before := hashTree(t, dir)
	cache := t.TempDir()
	r := runTest(t, cache, dir, nil)
	if r.err != nil || r.out.ExitCode() != ExitPass {
		t.Fatalf("%v %+v\n%s\n%s", r.err, r.out, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "-mod=mod") {
		t.Errorf("no warning that the vendor directory is not used:\n%s", r.stderr)
	}
	mirrored, _ := filepath.Glob(filepath.Join(cache, "modules", "*", "errgroup", "errgroup.go"))
	if len(mirrored) != 1 || !strings.Contains(readFile(t, mirrored[0]), "interleave_rt") {
		t.Errorf("the vendored errgroup is not instrumented in a module mirror: %v", mirrored)
	}
	if hashTree(t, dir) != before {
		t.Error("the run wrote into the user's tree")
	}
}

// TestInstrumentMain checks that Options.InstrumentMain rewrites the main
// module's files, Instrument the dependencies', and that the cache keeps
// the two instrumentations of a file apart.
func TestInstrumentMain(t *testing.T) {
	skipShort(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"dep/go.mod":     "module example.com/dep\n\ngo 1.21\n",
		"dep/dep.go":     "package dep\n\n// Two returns 2.\nfunc Two() int { return 2 }\n",
		"main/go.mod":    "module example.com/main\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
		"main/m.go":      "package m\n\nimport \"example.com/dep\"\n\n// Three returns 3.\nfunc Three() int { return dep.Two() + 1 }\n",
		"main/m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {\n\tif Three() != 3 {\n\t\tt.Fatal(Three())\n\t}\n}\n",
	})
	dir := filepath.Join(root, "main")
	cache := t.TempDir()
	var mu sync.Mutex
	seen := map[string]string{} // base name -> instrumenter
	record := func(which string) InstrumentFunc {
		return func(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []Warning, error) {
			mu.Lock()
			seen[filepath.Base(filename)] = which
			mu.Unlock()
			return standIn(fset, f, pkg, info, filename)
		}
	}
	run := func(main bool) {
		t.Helper()
		clear(seen)
		o := Options{Dir: dir, Instrument: record("deps"), ToolID: "main-test", CacheDir: cache, Stdout: io.Discard, Stderr: io.Discard}
		if main {
			o.InstrumentMain = record("main")
		}
		out, err := Test(context.Background(), o)
		if err != nil || out.ExitCode() != ExitPass {
			t.Fatalf("main=%v: %v %+v", main, err, out)
		}
	}
	run(true)
	if seen["m.go"] != "main" || seen["m_test.go"] != "main" || seen["dep.go"] != "deps" {
		t.Errorf("instrumenters used: %v", seen)
	}
	run(false) // dep.go is cached; m.go's cached copy is the main module's
	if seen["m.go"] != "deps" || seen["dep.go"] != "" {
		t.Errorf("instrumenters used without InstrumentMain: %v", seen)
	}
}
